import { defineCollection } from 'astro:content';
import { glob } from 'astro/loaders';
import { z } from 'astro/zod';

/** Blog articles: Markdown files under src/content/blog; the file name is the article id (its URL). */
const blog = defineCollection({
  loader: glob({ pattern: '*.md', base: './src/content/blog' }),
  schema: ({ image }) =>
    z.object({
      title: z.string().min(10).max(110),
      /** Shown on the blog grid and as the meta description: one or two sentences. */
      excerpt: z.string().min(60).max(200),
      date: z.coerce.date(),
      image: image(),
      imageAlt: z.string().min(10),
    }),
});

export const collections = { blog };
