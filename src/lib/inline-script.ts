/**
 * The tiny page scripts of src/scripts/ are inlined into the HTML, so they are minified first: by
 * esbuild, a real parser, rather than by stripping comment-looking text. Runs at build time only (the
 * `?inline-script` imports of src/lib/page-scripts.ts, through the Vite plugin in astro.config.ts),
 * and astro.config.ts hashes the same output for the Content-Security-Policy.
 */
import { transformSync } from 'esbuild';

export function minifyPageScript(source: string): string {
  // The scripts are plain JavaScript that also type-checks as TypeScript: the `ts` loader drops any type.
  return transformSync(source, {
    loader: 'ts',
    minify: true,
    target: 'es2022',
    legalComments: 'none',
  }).code.trim();
}
