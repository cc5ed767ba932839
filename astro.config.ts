import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import node from '@astrojs/node';
import react from '@astrojs/react';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig } from 'astro/config';
import type { AstroIntegration } from 'astro';
import type { PluginOption } from 'vite';
import { fileURLToPath } from 'node:url';
import interactionDirective from './src/client/interaction-integration.ts';
import { minifyPageScript } from './src/lib/inline-script.ts';
import { getConfig } from './src/server/config.ts';
import { ADAPTER_BODY_BYTES, ASTRO_ACTION_BODY_BYTES } from './src/server/http/security.ts';
import { BUILD_ORIGIN, precompressBuild } from './src/server/http/static-files.ts';

// One build serves any SITE_URL: prerendered files carry a placeholder origin that the server replaces
// with the run-time value when it loads them (src/server/http/static-files.ts). `astro dev` renders
// every page on request, with the real value.
if (process.argv.includes('build')) process.env.SITE_URL = BUILD_ORIGIN;
const config = getConfig();

/**
 * Pages inline the tiny scripts of src/scripts/ (src/lib/page-scripts.ts: `?inline-script`, minified) so no script
 * file is downloaded before the first interaction. Astro cannot hash what it does not process, so the
 * CSP allows exactly those files' contents by hash.
 */
function inlineScriptHashes(): `sha256-${string}`[] {
  const dir = new URL('./src/scripts/', import.meta.url);
  return readdirSync(dir)
    .filter((file) => file.endsWith('.ts'))
    .map(
      (file) =>
        `sha256-${createHash('sha256')
          .update(minifyPageScript(readFileSync(new URL(file, dir), 'utf8')))
          .digest('base64')}` as const,
    );
}

/** `import source from './x.ts?inline-script'`: the file minified by esbuild, as a string (src/lib/inline-script.ts). */
function inlineScripts(): PluginOption {
  const suffix = '?inline-script';
  return {
    name: 'vertice:inline-script',
    enforce: 'pre',
    load(id) {
      if (!id.endsWith(suffix)) return null;
      const file = id.slice(0, -suffix.length);
      this.addWatchFile(file);
      return `export default ${JSON.stringify(minifyPageScript(readFileSync(file, 'utf8')))};`;
    },
  };
}

/** Brotli (quality 11) and gzip copies of the built files, so the server only reads them at start (src/server/http/static-files.ts). */
function precompress(): AstroIntegration {
  return {
    name: 'vertice:precompress',
    hooks: {
      'astro:build:done': async ({ dir, logger }) => {
        const clientDir = fileURLToPath(dir);
        const count = await precompressBuild(clientDir, fileURLToPath(new URL('../precompressed/', dir)));
        logger.info(`${count} archivos comprimidos (brotli y gzip)`);
      },
    },
  };
}

// https://docs.astro.build/en/reference/configuration-reference/
export default defineConfig({
  site: config.SITE_URL,
  trailingSlash: 'never',
  // Marketing pages are prerendered HTML; staff pages, forms and APIs opt out with `prerender = false`.
  output: 'static',
  adapter: node({
    mode: 'standalone',
    // The adapter accepts 1 GiB by default; nothing we receive is anywhere near 100 KB but the forms
    // with files (21 MiB, read as they stream) and the client CSV import (4 MiB). Every body is refused
    // earlier, per route (src/server/http/security.ts).
    bodySizeLimit: ADAPTER_BODY_BYTES,
    staticHeaders: true,
  }),
  integrations: [react(), interactionDirective(), precompress()],
  security: {
    checkOrigin: true,
    // Per route in src/server/http/security.ts (64 KiB for actions, 4 MiB for the client CSV import).
    actionBodySizeLimit: ASTRO_ACTION_BODY_BYTES,
    csp: {
      directives: [
        "default-src 'self'",
        "img-src 'self' data:",
        "font-src 'self'",
        "connect-src 'self'",
        'frame-src https://www.youtube-nocookie.com',
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
      ],
      scriptDirective: { hashes: inlineScriptHashes() },
      styleDirective: { resources: ["'self'", "'unsafe-inline'"] },
    },
  },
  build: {
    inlineStylesheets: 'auto',
  },
  // Shiki highlights with inline styles, which the CSP forbids; our Markdown has no code blocks.
  markdown: { syntaxHighlight: false },
  prefetch: false,
  // Astro's own lines (e.g. a route that threw) go through the server's JSON logger.
  logger: { entrypoint: './src/server/astro-logger.mjs' },
  devToolbar: { enabled: false },
  server: { host: config.HOST, port: config.PORT },
  vite: {
    plugins: [tailwindcss(), inlineScripts()],
  },
});
