/**
 * The three products (spec §3, "Product card"). Plain data with no asset imports, so unit tests and
 * any island can import it; the artwork lives in `product-images.ts`, keyed by `id`.
 */
import { ROUTES } from '../../consts.ts';

export type ProductId = 'admcloud' | 'restaurantpe' | 'tiendao';

/** Reveal animation of a card; `data-reveal` values understood by src/scripts/reveal.ts. */
export type RevealAnimation = 'fade-up' | 'fade-left' | 'fade-right' | 'zoom';

export interface Product {
  id: ProductId;
  name: string;
  /** One line under the name: what kind of system it is. */
  kind: string;
  description: string;
  link: string;
  animation: RevealAnimation;
}

export const PRODUCTS: readonly Product[] = [
  {
    id: 'admcloud',
    name: 'AdmCloud',
    kind: 'ERP en la nube',
    description:
      'ERP inteligente, simple, completo y flexible, con IA nativa y facturación electrónica integrada: contabilidad, inventario, CRM y reportes fiscales para la DGII en un solo sistema.',
    link: ROUTES.productAdmcloud,
    animation: 'fade-up',
  },
  {
    id: 'restaurantpe',
    name: 'Restaurant.pe',
    kind: 'Punto de venta para restaurantes',
    description:
      'Punto de venta y gestión para restaurantes: comandas a cocina, mesas y delivery, control de recetas e inventario, cierres de caja y reportes de ventas en tiempo real.',
    link: ROUTES.productRestaurantpe,
    animation: 'fade-up',
  },
  {
    id: 'tiendao',
    name: 'Tiendao',
    kind: 'Tienda en línea para supermercados',
    description:
      'App web con tu marca para supermercados y colmados: tus clientes arman el carrito desde el celular y te envían el pedido por WhatsApp, sin registrarse ni instalar nada.',
    link: ROUTES.productTiendao,
    animation: 'fade-up',
  },
];

export function productById(id: ProductId): Product {
  const product = PRODUCTS.find((item) => item.id === id);
  if (!product) throw new Error(`Producto desconocido: ${id}`);
  return product;
}
