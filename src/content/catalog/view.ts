/**
 * Catalog data shaped for the home and info pages' components (image metadata flattened to plain
 * props). Used by routes only: it imports assets, which resolve inside Astro's build.
 */
import type { ClientLogo } from '../../components/home/ClientLogoWall.tsx';
import type { ProductCardData } from '../../components/home/ProductCard.tsx';
import type { RecommendationOption } from '../../components/home/RecommendationDialog.tsx';
import { toImageSource } from '../../components/ui/image.ts';
import { assetLogo } from '../../lib/client-logos.ts';
import { CLIENTS, INDUSTRIES } from './clients.ts';
import { PRODUCT_IMAGE_ALT, PRODUCT_IMAGES } from './product-images.ts';
import { PRODUCTS, productById } from './products.ts';
import { BUSINESS_FOCUSES, RECOMMENDATIONS } from './recommendations.ts';

export function productCards(): ProductCardData[] {
  return PRODUCTS.map((product) => ({
    name: product.name,
    kind: product.kind,
    description: product.description,
    link: product.link,
    animation: product.animation,
    image: toImageSource(PRODUCT_IMAGES[product.id]),
    imageAlt: PRODUCT_IMAGE_ALT[product.id],
  }));
}

const FOCUS_HINTS: Record<(typeof BUSINESS_FOCUSES)[number], string> = {
  'Contabilidad y Finanzas': 'Facturación electrónica, contabilidad, inventario y reportes a la DGII.',
  Restaurantes: 'Mesas, comandas a cocina, delivery y cierres de caja.',
  'Venta digital de productos': 'Catálogo en línea y pedidos de tus clientes por WhatsApp.',
};

export function recommendationOptions(): RecommendationOption[] {
  return BUSINESS_FOCUSES.map((focus) => {
    const recommendation = RECOMMENDATIONS[focus];
    return {
      focus,
      hint: FOCUS_HINTS[focus],
      productId: recommendation.img,
      product: {
        name: recommendation.nombre,
        description: recommendation.descripcion,
        href: recommendation.ruta,
        image: toImageSource(PRODUCT_IMAGES[recommendation.img]),
        imageAlt: PRODUCT_IMAGE_ALT[productById(recommendation.img).id],
      },
    };
  });
}

export function clientLogos(): ClientLogo[] {
  return CLIENTS.flatMap((client) => {
    const logo = assetLogo(client.file);
    return logo ? [{ name: client.name, industry: client.industry, logo }] : [];
  });
}

export function industriesWithClients() {
  return INDUSTRIES.map((industry) => ({
    ...industry,
    clients: CLIENTS.filter((client) => client.industry === industry.name).map((client) => client.name),
  }));
}
