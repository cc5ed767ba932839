import node from '@astrojs/node';
import react from '@astrojs/react';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig } from 'astro/config';
import interactionDirective from './src/client/interaction-integration.ts';
import { getConfig } from './src/server/config.ts';

const config = getConfig();

// https://docs.astro.build/en/reference/configuration-reference/
export default defineConfig({
  site: config.SITE_URL,
  trailingSlash: 'never',
  // Marketing pages are prerendered HTML; staff pages, forms and APIs opt out with `prerender = false`.
  output: 'static',
  adapter: node({
    mode: 'standalone',
    // The adapter accepts 1 GiB by default; nothing we receive is anywhere near 100 KB.
    bodySizeLimit: 100 * 1024,
  }),
  integrations: [react(), interactionDirective()],
  security: {
    checkOrigin: true,
    actionBodySizeLimit: 64 * 1024,
  },
  build: {
    inlineStylesheets: 'auto',
  },
  prefetch: false,
  devToolbar: { enabled: false },
  server: { host: config.HOST, port: config.PORT },
  vite: {
    plugins: [tailwindcss()],
  },
});
