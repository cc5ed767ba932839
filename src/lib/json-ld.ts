/**
 * schema.org structured data (JSON-LD) of the public pages, for SiteLayout's `jsonLd` prop: the
 * company on the home page, a product on each product page, the blog listing and each blog post.
 *
 * Every absolute URL of the site, here and in SiteLayout's head, is built by `absoluteUrl()`, which
 * reads `getConfig().SITE_URL` at each call: nothing captures the site's address at import time.
 */
import { ROUTES } from '../routes.ts';
import { getConfig } from '../server/config.ts';

export const SCHEMA_ORG = 'https://schema.org';

/** One JSON-LD document: a schema.org node with its context. */
export interface JsonLd {
  '@context': typeof SCHEMA_ORG;
  '@type': string;
  [property: string]: unknown;
}

/** Absolute URL of a path of this site (`/blog` -> `https://…/blog`), under the configured SITE_URL. */
export function absoluteUrl(path: string): string {
  return new URL(path, getConfig().SITE_URL).href;
}

/** What the home page says of the company (besides its configured name, tagline and contact details). */
const COMPANY_DESCRIPTION =
  'Consultoría tecnológica en República Dominicana: implementación de AdmCloud, Restaurant.pe y Tiendao, desarrollos a la medida y entrenamientos.';

/** The company as a LocalBusiness in Santo Domingo (home page); `@id` names it for other nodes. */
export function organizationJsonLd(): JsonLd {
  const config = getConfig();
  return {
    '@context': SCHEMA_ORG,
    '@type': 'LocalBusiness',
    '@id': absoluteUrl('/#organizacion'),
    name: config.COMPANY_NAME,
    slogan: config.COMPANY_TAGLINE,
    description: COMPANY_DESCRIPTION,
    url: absoluteUrl('/'),
    logo: absoluteUrl('/favicon.svg'),
    image: absoluteUrl('/favicon.svg'),
    telephone: config.COMPANY_PHONE,
    email: config.COMPANY_EMAIL,
    address: {
      '@type': 'PostalAddress',
      streetAddress: config.COMPANY_ADDRESS.split(/,\s*Santo Domingo/i)[0],
      addressLocality: 'Santo Domingo',
      addressRegion: 'Distrito Nacional',
      addressCountry: 'DO',
    },
    foundingDate: '2023',
    areaServed: { '@type': 'Country', name: 'República Dominicana', identifier: 'DO' },
    sameAs: [config.COMPANY_SOCIAL_URL],
  };
}

/** The company as the author and publisher of a blog post. */
function publisher() {
  return {
    '@type': 'Organization',
    name: getConfig().COMPANY_NAME,
    url: absoluteUrl('/'),
    logo: { '@type': 'ImageObject', url: absoluteUrl('/favicon.svg') },
  };
}

export interface ProductJsonLdInput {
  name: string;
  description: string;
  category: string;
  /** Site path of an image of the product (an imported image's `src`). */
  image: string;
  /** Site path of the product page, e.g. `/producto/admcloud`. */
  path: string;
  /** A published price, in US dollars. */
  offer?: { price: number; description: string; /** Site path of the prices. */ path: string };
}

/** A product page's product, with its brand and, when published, its price. */
export function productJsonLd(product: ProductJsonLdInput): JsonLd {
  const { offer } = product;
  return {
    '@context': SCHEMA_ORG,
    '@type': 'Product',
    name: product.name,
    description: product.description,
    category: product.category,
    brand: { '@type': 'Brand', name: product.name },
    image: absoluteUrl(product.image),
    url: absoluteUrl(product.path),
    ...(offer && {
      offers: {
        '@type': 'Offer',
        price: String(offer.price),
        priceCurrency: 'USD',
        description: offer.description,
        url: absoluteUrl(offer.path),
      },
    }),
  };
}

export interface BlogPostSummary {
  title: string;
  /** Site path of the post. */
  path: string;
  /** Publication day, `YYYY-MM-DD`. */
  date: string;
}

/** The blog listing with its posts, newest first as given. */
export function blogJsonLd(posts: readonly BlogPostSummary[]): JsonLd {
  return {
    '@context': SCHEMA_ORG,
    '@type': 'Blog',
    name: `Blog de ${getConfig().COMPANY_NAME}`,
    url: absoluteUrl(ROUTES.blog),
    inLanguage: 'es-DO',
    blogPost: posts.map((post) => ({
      '@type': 'BlogPosting',
      headline: post.title,
      url: absoluteUrl(post.path),
      datePublished: post.date,
    })),
  };
}

export interface BlogPostingInput extends BlogPostSummary {
  description: string;
  /** Site path of the post's social card (also its `og:image`). */
  image: string;
}

/** One blog post, written and published by the company. */
export function blogPostingJsonLd(post: BlogPostingInput): JsonLd {
  const url = absoluteUrl(post.path);
  return {
    '@context': SCHEMA_ORG,
    '@type': 'BlogPosting',
    headline: post.title,
    description: post.description,
    datePublished: post.date,
    dateModified: post.date,
    inLanguage: 'es-DO',
    image: absoluteUrl(post.image),
    url,
    mainEntityOfPage: { '@type': 'WebPage', '@id': url },
    author: publisher(),
    publisher: publisher(),
  };
}

/** The help centre (`/ayuda`): a collection of help articles, searchable by `?q=`. */
export function helpCentreJsonLd(articles: ReadonlyArray<{ title: string; path: string }>): JsonLd {
  return {
    '@context': SCHEMA_ORG,
    '@type': 'CollectionPage',
    name: `Centro de ayuda de ${getConfig().COMPANY_NAME}`,
    url: absoluteUrl(ROUTES.help),
    inLanguage: 'es-DO',
    publisher: publisher(),
    mainEntity: {
      '@type': 'ItemList',
      itemListElement: articles.map((article, index) => ({
        '@type': 'ListItem',
        position: index + 1,
        name: article.title,
        url: absoluteUrl(article.path),
      })),
    },
    potentialAction: {
      '@type': 'SearchAction',
      target: { '@type': 'EntryPoint', urlTemplate: `${absoluteUrl(ROUTES.help)}?q={search_term_string}` },
      'query-input': 'required name=search_term_string',
    },
  };
}

export interface HelpArticleJsonLdInput {
  title: string;
  description: string;
  path: string;
  /** Publication day, `YYYY-MM-DD`. */
  datePublished: string;
  /** Day of the last change, `YYYY-MM-DD`. */
  dateModified: string;
  /** Site path of its social card. */
  image: string;
  tags: readonly string[];
}

/** A help article: a `TechArticle` (how to use the products), and its place under the help centre. */
export function helpArticleJsonLd(article: HelpArticleJsonLdInput): JsonLd[] {
  const url = absoluteUrl(article.path);
  return [
    {
      '@context': SCHEMA_ORG,
      '@type': 'TechArticle',
      headline: article.title,
      description: article.description,
      datePublished: article.datePublished,
      dateModified: article.dateModified,
      inLanguage: 'es-DO',
      image: absoluteUrl(article.image),
      url,
      mainEntityOfPage: { '@type': 'WebPage', '@id': url },
      ...(article.tags.length ? { keywords: article.tags.join(', ') } : {}),
      isPartOf: { '@type': 'CollectionPage', name: 'Centro de ayuda', url: absoluteUrl(ROUTES.help) },
      author: publisher(),
      publisher: publisher(),
    },
    {
      '@context': SCHEMA_ORG,
      '@type': 'BreadcrumbList',
      itemListElement: [
        { '@type': 'ListItem', position: 1, name: 'Centro de ayuda', item: absoluteUrl(ROUTES.help) },
        { '@type': 'ListItem', position: 2, name: article.title, item: url },
      ],
    },
  ];
}
