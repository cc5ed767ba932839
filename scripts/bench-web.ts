/**
 * `npm run bench:web`: builds, serves the production build with a fresh database, and runs Lighthouse
 * (mobile preset, the system Chromium) three times on every public route, printing the medians:
 * the four category scores, LCP, TBT, CLS and the bytes transferred (gzip, as served) by type.
 *
 * Options: --no-build (reuse dist/), --runs N (default 3), --only /path[,/path…].
 * A benchmark, not a test: figures depend on the machine; compare ratios measured in one run.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { CHROME_ARGS, CHROME_PATH } from '../tests/support/browser.ts';
import { ROOT, startServer } from '../tests/support/server.ts';
import { publishSampleHelp, SAMPLE_HELP } from './bench/sample-content.ts';

const PUBLIC_ROUTES = [
  '/',
  '/sobrenosotros',
  '/servicios',
  '/productos',
  '/blog',
  '/blog/mejor-erp-2025',
  '/ayuda',
  `/ayuda/${SAMPLE_HELP.slug}`,
  '/contacto',
  '/clientes',
  '/producto/admcloud',
  '/producto/restaurantpe',
  '/producto/tiendao',
];

const args = process.argv.slice(2);
const runs = Number(args[args.indexOf('--runs') + 1]) || 3;
const only = args.includes('--only') ? (args[args.indexOf('--only') + 1] ?? '').split(',') : null;
const routes = only ?? PUBLIC_ROUTES;

interface Sample {
  performance: number;
  accessibility: number;
  bestPractices: number;
  seo: number;
  lcp: number;
  tbt: number;
  cls: number;
  html: number;
  js: number;
  css: number;
  total: number;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
};

function bytesByType(items: Array<{ resourceType?: string; transferSize?: number }>) {
  const sum = (type?: string) =>
    items
      .filter((item) => !type || item.resourceType === type)
      .reduce((total, item) => total + (item.transferSize ?? 0), 0);
  return { html: sum('Document'), js: sum('Script'), css: sum('Stylesheet'), total: sum() };
}

async function main(): Promise<void> {
  if (!args.includes('--no-build')) {
    execFileSync(process.execPath, [join(ROOT, 'node_modules/astro/bin/astro.mjs'), 'build'], {
      cwd: ROOT,
      stdio: 'ignore',
    });
  }
  const server = await startServer({ env: { LOG_LEVEL: 'warn' } });
  await publishSampleHelp(server.url, server.env.DATABASE_URL!);
  const chrome = await chromeLauncher.launch({
    chromePath: CHROME_PATH,
    // The tests' flags (no sandbox, no GPU, no background connections), in the full browser's headless mode.
    chromeFlags: ['--headless=new', ...CHROME_ARGS],
  });
  const rows: Array<[string, Sample]> = [];
  try {
    for (const route of routes) {
      const samples: Sample[] = [];
      for (let run = 0; run < runs; run++) {
        const result = await lighthouse(`${server.url}${route}`, {
          port: chrome.port,
          output: 'json',
          logLevel: 'error',
          onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo'],
        });
        if (!result) throw new Error(`Lighthouse no devolvió resultado para ${route}`);
        const { categories, audits } = result.lhr;
        const requests =
          (
            audits['network-requests']?.details as
              { items?: Array<{ resourceType?: string; transferSize?: number }> } | undefined
          )?.items ?? [];
        samples.push({
          performance: Math.round((categories.performance?.score ?? 0) * 100),
          accessibility: Math.round((categories.accessibility?.score ?? 0) * 100),
          bestPractices: Math.round((categories['best-practices']?.score ?? 0) * 100),
          seo: Math.round((categories.seo?.score ?? 0) * 100),
          lcp: audits['largest-contentful-paint']?.numericValue ?? NaN,
          tbt: audits['total-blocking-time']?.numericValue ?? NaN,
          cls: audits['cumulative-layout-shift']?.numericValue ?? NaN,
          ...bytesByType(requests),
        });
      }
      const pick = (key: keyof Sample) => median(samples.map((sample) => sample[key]));
      rows.push([
        route,
        Object.fromEntries(
          (Object.keys(samples[0] ?? {}) as Array<keyof Sample>).map((key) => [key, pick(key)]),
        ) as unknown as Sample,
      ]);
      process.stderr.write(`  ${route} ✓\n`);
    }
  } finally {
    chrome.kill();
    await server.stop();
  }

  const kb = (bytes: number) => (bytes / 1024).toFixed(1);
  console.log(`\nLighthouse (mobile preset), median of ${runs} runs; bytes transferred in KB\n`);
  console.log('| route | perf | a11y | best pr. | SEO | LCP ms | TBT ms | CLS | HTML | JS | CSS | total |');
  console.log('|---|---|---|---|---|---|---|---|---|---|---|---|');
  for (const [route, s] of rows) {
    console.log(
      `| ${route} | ${s.performance} | ${s.accessibility} | ${s.bestPractices} | ${s.seo} | ${Math.round(s.lcp)} | ${Math.round(s.tbt)} | ${s.cls.toFixed(3)} | ${kb(s.html)} | ${kb(s.js)} | ${kb(s.css)} | ${kb(s.total)} |`,
    );
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
