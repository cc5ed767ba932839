/**
 * What's-new announcements (spec §3: four, static). The site's toast shows the first one a visitor
 * has not seen yet (remembered in localStorage under `whatsnew-{id}`); the staff dashboard lists
 * them as the latest news. Newest first; `id` must stay stable once published.
 */
export interface Announcement {
  /** Stable identifier: the toast remembers it under `whatsnew-{id}`. */
  id: string;
  title: string;
  message: string;
  /** Site path (with an optional #fragment) of the page that explains it. */
  link: string;
}

export const WHATSNEW_KEY_PREFIX = 'whatsnew-';

export const ANNOUNCEMENTS: readonly Announcement[] = [
  {
    id: 'calculadora-tiendao',
    title: 'Nueva calculadora de inversión',
    message: 'Calcula en segundos cuánto cuesta tu tienda en línea con Tiendao, con o sin dominio propio.',
    link: '/producto/tiendao#calculadora',
  },
  {
    id: 'integracion-admcloud-restaurantpe',
    title: 'AdmCloud + Restaurant.pe',
    message:
      'Las ventas de tu restaurante ahora llegan solas a tu contabilidad. Conoce la nueva integración.',
    link: '/blog/integracion-admcloud-restaurantpe',
  },
  {
    id: 'blog-mejor-erp-2025',
    title: 'Nuevo en el blog: el mejor ERP en 2025',
    message:
      'Qué mirar antes de elegir un ERP ahora que la facturación electrónica de la DGII es obligatoria.',
    link: '/blog/mejor-erp-2025',
  },
  {
    id: 'mejoras-tienda-en-linea',
    title: 'Mejoras en la tienda en línea',
    message: 'Tiendao estrena reportes de más vendidos, ofertas destacadas y reenvío de pedidos en un toque.',
    link: '/producto/tiendao',
  },
];
