/**
 * The three products (spec §3, "Product card"). Plain data with no asset imports, so unit tests and
 * any island can import it; the artwork lives in `product-images.ts`, keyed by `id`.
 */
import { ROUTES } from '../../routes.ts';

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

/** Who each product fits and what it brings (the comparison on /productos). */
export const PRODUCT_FIT: Readonly<
  Record<ProductId, { idealFor: string; modules: readonly string[]; timeline: string }>
> = {
  admcloud: {
    idealFor: 'empresas que necesitan orden contable y fiscal',
    modules: [
      'Contabilidad, bancos y cuentas por cobrar y por pagar',
      'Facturación electrónica (e-CF) y formatos 606, 607 e IT-1',
      'Inventario, compras y CRM',
      'Asistente con inteligencia artificial',
    ],
    timeline: 'de 4 a 6 semanas',
  },
  restaurantpe: {
    idealFor: 'restaurantes, cafeterías, bares y dark kitchens',
    modules: [
      'Mapa de mesas y comandas a cocina y barra',
      'Delivery y pedidos para llevar',
      'Recetas que descuentan el inventario',
      'Cierres de caja y reportes de ventas por turno',
    ],
    timeline: 'de 1 a 2 semanas',
  },
  tiendao: {
    idealFor: 'supermercados, colmados y tiendas de barrio',
    modules: [
      'App web con tu logo, colores y subdominio',
      'Pedidos de tus clientes por WhatsApp',
      'Panel para cargar productos, ofertas y pedidos',
      'Reportes de uso y productos más vendidos',
    ],
    timeline: 'en pocos días',
  },
};
