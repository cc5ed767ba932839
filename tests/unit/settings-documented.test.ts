/**
 * Every setting is documented, once (issue 40, §1): each environment variable the settings schema of
 * src/server/config.ts reads is listed in `.env.example` and has its one row in the tables of
 * docs/operations/configuration.md, and no other page of the README or docs/ keeps a second table row
 * for it that could drift from the first. The README points to that page, since it no longer holds the
 * table itself.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/server.ts';

const CONFIGURATION = 'docs/operations/configuration.md';

/** The variables the settings schema reads: the keys of `const schema = z.object({ … })`. */
function schemaKeys(source: string): string[] {
  const start = source.indexOf('const schema = z');
  const end = source.indexOf('.superRefine(', start);
  if (start < 0 || end < 0) throw new Error('src/server/config.ts: the settings schema was not found');
  return [...source.slice(start, end).matchAll(/^ {4}([A-Z][A-Z0-9_]*):/gm)].map((match) => match[1]!);
}

/** The variables `.env.example` lists, set (`HOST=…`) or commented out (`# SITE_URL=…`). */
function exampleKeys(text: string): string[] {
  return [...text.matchAll(/^(?:# ?)?([A-Z][A-Z0-9_]*)=/gm)].map((match) => match[1]!);
}

/** The variables each table row names in its first cell (`` | `HOST`, `PORT` | … ``). */
function tableRowKeys(text: string): string[] {
  return text
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .flatMap((line) => [...line.split('|')[1]!.matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((match) => match[1]!));
}

/** How often each key is among `keys`, for those that are not exactly once. */
function notOnce(expected: readonly string[], keys: readonly string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const key of expected) counts[key] = keys.filter((item) => item === key).length;
  return Object.fromEntries(Object.entries(counts).filter(([, count]) => count !== 1));
}

function markdownFiles(): string[] {
  const under = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? under(path) : name.endsWith('.md') ? [path] : [];
    });
  return [join(ROOT, 'README.md'), ...under(join(ROOT, 'docs'))];
}

const keys = schemaKeys(readFileSync(join(ROOT, 'src/server/config.ts'), 'utf8'));

describe('the settings are documented', () => {
  it('reads the schema and the tables (the checks can fail)', () => {
    expect(keys).toContain('HOST');
    expect(keys).toContain('WHATSAPP_TEMPLATE_LANGUAGE');
    const table = ['| `HOST`, `PORT` | x | y |', '| `HOST` | x | again |', '| what | `SITE_URL` | z |'].join(
      '\n',
    );
    expect(notOnce(['HOST', 'PORT', 'SITE_URL'], tableRowKeys(table))).toEqual({ HOST: 2, SITE_URL: 0 });
  });

  it('lists every setting of the schema in .env.example, and nothing else', () => {
    const example = exampleKeys(readFileSync(join(ROOT, '.env.example'), 'utf8'));
    expect(keys.length).toBeGreaterThan(40);
    expect(notOnce(keys, example)).toEqual({});
    expect(example.filter((key) => !keys.includes(key))).toEqual([]);
  });

  it(`gives every setting one row in ${CONFIGURATION}, and no row elsewhere`, () => {
    const rows = tableRowKeys(readFileSync(join(ROOT, CONFIGURATION), 'utf8'));
    expect(notOnce(keys, rows)).toEqual({});
    expect(rows.filter((key) => !keys.includes(key))).toEqual([]);
    const elsewhere = markdownFiles()
      .filter((file) => !file.endsWith(CONFIGURATION))
      .flatMap((file) =>
        tableRowKeys(readFileSync(file, 'utf8'))
          .filter((key) => keys.includes(key))
          .map((key) => `${relative(ROOT, file)}: ${key}`),
      );
    expect(elsewhere).toEqual([]);
  });

  it('points the README to the settings page', () => {
    expect(readFileSync(join(ROOT, 'README.md'), 'utf8')).toContain(`](${CONFIGURATION})`);
  });
});
