/**
 * schema.org structured data built from the configured company details, for the `jsonLd` prop of
 * SiteLayout: `organizationJsonLd()` on the home page, `productJsonLd()` on product pages.
 */
import type { Config } from './config.ts';

type JsonLd = Record<string, unknown>;

/** The company as a LocalBusiness (a kind of Organization) in Santo Domingo. */
export function organizationJsonLd(config: Config): JsonLd {
  return {
    '@context': 'https://schema.org',
    '@type': 'ProfessionalService',
    '@id': new URL('/#organizacion', config.SITE_URL).href,
    name: config.COMPANY_NAME,
    slogan: config.COMPANY_TAGLINE,
    url: new URL('/', config.SITE_URL).href,
    logo: new URL('/apple-touch-icon.png', config.SITE_URL).href,
    image: new URL('/og/default.png', config.SITE_URL).href,
    telephone: config.COMPANY_PHONE,
    email: config.COMPANY_EMAIL,
    foundingDate: '2023',
    address: { '@type': 'PostalAddress', streetAddress: config.COMPANY_ADDRESS, addressLocality: 'Santo Domingo', addressCountry: 'DO' },
    areaServed: { '@type': 'Country', name: 'República Dominicana' },
    sameAs: [config.COMPANY_SOCIAL_URL],
    contactPoint: {
      '@type': 'ContactPoint',
      contactType: 'customer support',
      telephone: config.COMPANY_PHONE,
      email: config.COMPANY_EMAIL,
      availableLanguage: 'es',
    },
  };
}

export interface ProductJsonLdInput {
  name: string;
  description: string;
  /** Site path of the product page, e.g. `/producto/admcloud`. */
  path: string;
  /** Absolute URL or site path of an image of the product. */
  image?: string;
  category?: string;
  /** Starting price in US dollars, when the page publishes one (Tiendao: 500). */
  priceUsd?: number;
}

/** A product page's software application, offered by the company. */
export function productJsonLd(config: Config, product: ProductJsonLdInput): JsonLd {
  return {
    '@context': 'https://schema.org',
    '@type': 'Product',
    name: product.name,
    description: product.description,
    url: new URL(product.path, config.SITE_URL).href,
    ...(product.image ? { image: new URL(product.image, config.SITE_URL).href } : {}),
    ...(product.category ? { category: product.category } : {}),
    brand: { '@type': 'Brand', name: product.name },
    offers: {
      '@type': 'Offer',
      url: new URL(product.path, config.SITE_URL).href,
      availability: 'https://schema.org/InStock',
      ...(product.priceUsd !== undefined ? { price: product.priceUsd.toFixed(2), priceCurrency: 'USD' } : {}),
      seller: { '@type': 'Organization', name: config.COMPANY_NAME, '@id': new URL('/#organizacion', config.SITE_URL).href },
    },
  };
}
