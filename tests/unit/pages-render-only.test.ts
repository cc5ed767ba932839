/**
 * Pages only read data and render (docs/decisions/0012-staff-forms-as-actions.md): what a form posts is
 * handled by an action (src/actions/), never by the page. Every file under src/pages/ but the API
 * endpoints (src/pages/api/) is read here, and none may read a request body, import the database
 * (src/server/db) or branch on the request method.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/server.ts';

/** What a page must not do, each with the pattern that finds it in the source. */
export const FORBIDDEN: ReadonlyArray<{ what: string; pattern: RegExp }> = [
  { what: 'reads the request body', pattern: /\.(formData|json|text|arrayBuffer|blob|bytes)\s*\(\s*\)/ },
  { what: 'reads the request body', pattern: /request\s*\.\s*(body|clone)\b|\.clone\s*\(\s*\)/ },
  { what: 'hands the request on, to read its body elsewhere', pattern: /\(\s*Astro\.request\s*[,)]/ },
  {
    what: 'imports the database',
    pattern: /from\s+['"][^'"]*server\/db(\/[^'"]*)?['"]|import\s*\(\s*['"][^'"]*server\/db/,
  },
  {
    what: 'branches on the request method',
    pattern: /request\s*\.\s*method|\bmethod\s*===?\s*['"](POST|GET|PUT|PATCH|DELETE)['"]/,
  },
];

/** The problems of one file's source: `what` for each forbidden thing it does. */
export function pageProblems(source: string): string[] {
  return [...new Set(FORBIDDEN.filter(({ pattern }) => pattern.test(source)).map(({ what }) => what))];
}

/** Every file under src/pages/ but src/pages/api/, by its path there. */
function pageFiles(): string[] {
  const pages = join(ROOT, 'src/pages');
  return readdirSync(pages, { recursive: true, encoding: 'utf8' })
    .filter(
      (file) =>
        /\.(astro|ts|tsx|js|mjs)$/.test(file) && !file.startsWith('api/') && !file.startsWith('api\\'),
    )
    .sort();
}

describe('pages only read data and render', () => {
  it('finds the page files', () => {
    const files = pageFiles();
    expect(files).toContain('admin/clientes/[id].astro');
    expect(files).toContain('admin-login.astro');
    expect(files.some((file) => file.startsWith('api/'))).toBe(false);
  });

  it('no page reads a request body, imports the database or branches on the request method', () => {
    const problems = pageFiles().flatMap((file) =>
      pageProblems(readFileSync(join(ROOT, 'src/pages', file), 'utf8')).map((what) => `${file}: ${what}`),
    );
    expect(problems).toEqual([]);
  });

  it('recognises each forbidden thing (so the check above can fail)', () => {
    expect(pageProblems('const form = await Astro.request.formData();')).toEqual(['reads the request body']);
    expect(pageProblems('const body = await request.json();')).toEqual(['reads the request body']);
    expect(pageProblems('const copy = await Astro.request.clone().text();')).toEqual([
      'reads the request body',
    ]);
    expect(pageProblems('const values = await postedValues(Astro.request, FIELDS);')).toEqual([
      'hands the request on, to read its body elsewhere',
    ]);
    expect(pageProblems("import { getDb } from '../../server/db/index.ts';")).toEqual([
      'imports the database',
    ]);
    expect(pageProblems("if (Astro.request.method === 'POST') {")).toEqual([
      'branches on the request method',
    ]);
    expect(pageProblems("const { method } = Astro.request; if (method === 'POST') {}")).toEqual([
      'branches on the request method',
    ]);
    // Reading headers, the URL or the action's result is what a page does.
    expect(
      pageProblems(
        'const staff = await requireStaff(Astro.request.headers); Astro.getActionResult(actions.x);',
      ),
    ).toEqual([]);
  });
});
