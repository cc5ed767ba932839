import rss from '@astrojs/rss';
import type { APIRoute } from 'astro';
import { getConfig } from '../server/config.ts';
import { blogArticlesView } from '../server/views/index.ts';

/** On demand, rendered once per change of the content and answered from memory (docs/decisions/0019). */
export const prerender = false;

/** RSS feed of the blog, newest first. */
export const GET: APIRoute = async () => {
  const config = getConfig();
  const articles = await blogArticlesView();
  return rss({
    title: `Blog de ${config.COMPANY_NAME}`,
    description:
      'Guías prácticas sobre ERP, facturación electrónica y gestión de restaurantes y comercios en República Dominicana.',
    site: config.SITE_URL,
    trailingSlash: false,
    customData: '<language>es-do</language>',
    items: articles.map((article) => ({
      title: article.title,
      description: article.excerpt,
      pubDate: new Date(article.publishAt),
      link: article.path,
    })),
  });
};
