/**
 * Artwork of each product, keyed by product id. Separate from `products.ts` because asset imports only
 * resolve inside Astro's build (unit tests import the plain data).
 */
import admcloud from '../../assets/home/producto-admcloud.svg';
import restaurantpe from '../../assets/home/producto-restaurantpe.svg';
import tiendao from '../../assets/home/producto-tiendao.svg';
import type { ProductId } from './products.ts';

export const PRODUCT_IMAGES: Readonly<Record<ProductId, ImageMetadata>> = { admcloud, restaurantpe, tiendao };

export const PRODUCT_IMAGE_ALT: Readonly<Record<ProductId, string>> = {
  admcloud: 'Panel de AdmCloud con indicadores de ventas y facturación electrónica',
  restaurantpe: 'Punto de venta de Restaurant.pe con el mapa de mesas y una comanda',
  tiendao: 'App de Tiendao en un celular con el catálogo y el botón de pedir por WhatsApp',
};
