/**
 * The recommendation mapping of spec §3: the business focus chosen in step 1 of the dialog and the
 * product it leads to. `img` is the product id, the key of its artwork in `product-images.ts`.
 */
import { ROUTES } from '../../routes.ts';
import type { ProductId } from './products.ts';

export const BUSINESS_FOCUSES = [
  'Contabilidad y Finanzas',
  'Restaurantes',
  'Venta digital de productos',
] as const;

export type BusinessFocus = (typeof BUSINESS_FOCUSES)[number];

export interface Recommendation {
  nombre: string;
  descripcion: string;
  img: ProductId;
  ruta: string;
}

export const RECOMMENDATIONS: Readonly<Record<BusinessFocus, Recommendation>> = {
  'Contabilidad y Finanzas': {
    nombre: 'AdmCloud',
    descripcion:
      'ERP inteligente en la nube con contabilidad, CRM y reportes fiscales (606, 607, IT-1) listos para la DGII, con facturación electrónica nativa.',
    img: 'admcloud',
    ruta: ROUTES.productAdmcloud,
  },
  Restaurantes: {
    nombre: 'Restaurant.pe',
    descripcion:
      'Punto de venta y gestión para restaurantes: mesas, comandas a cocina, delivery, recetas e inventario, con cierres de caja claros cada noche.',
    img: 'restaurantpe',
    ruta: ROUTES.productRestaurantpe,
  },
  'Venta digital de productos': {
    nombre: 'Tiendao',
    descripcion:
      'App web con tu marca para supermercados y colmados: tus clientes hacen el pedido desde el celular y te llega por WhatsApp.',
    img: 'tiendao',
    ruta: ROUTES.productTiendao,
  },
};
