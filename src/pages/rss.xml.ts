import rss from '@astrojs/rss';
import type { APIRoute } from 'astro';
import { getCollection } from 'astro:content';
import { getConfig } from '../server/config.ts';
import { articlePath } from '../routes.ts';

export const prerender = true;

/** RSS feed of the blog, newest first. */
export const GET: APIRoute = async () => {
  const config = getConfig();
  const articles = (await getCollection('blog')).sort((a, b) => b.data.date.getTime() - a.data.date.getTime());
  return rss({
    title: `Blog de ${config.COMPANY_NAME}`,
    description: 'Guías prácticas sobre ERP, facturación electrónica y gestión de restaurantes y comercios en República Dominicana.',
    site: config.SITE_URL,
    trailingSlash: false,
    customData: '<language>es-do</language>',
    items: articles.map((article) => ({
      title: article.data.title,
      description: article.data.excerpt,
      pubDate: article.data.date,
      link: articlePath(article.id),
    })),
  });
};
