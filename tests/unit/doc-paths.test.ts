/**
 * Every path the code's comments, the docs and the README name is there (issue 40, §1): a file
 * (`src/server/channels/intake.ts`), a folder (`src/domain/forms/`) or a decision by its number
 * (`docs/decisions/0014`). A moved file leaves no stale signpost behind.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/server.ts';

const SCANNED = ['src', 'scripts', 'tests', 'docs'];
const TEXT = /\.(ts|tsx|astro|md|mjs|css)$/;
/** A path of ours, as prose names it: it ends in a name, a `]` (a route's file) or a `/` (a folder). */
const PATH = /(?<![\w/.-])((?:src|scripts|tests|docs)\/[\w./[\]-]*[\w\]/])/g;
/** A decision named by its number alone. */
const DECISION = /^docs\/decisions\/(\d{4})$/;
/** A pattern that names many files is no path (`tests/integration/inbound-imap*.test.ts`). */
const GLOB = /[*{]/;

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === 'node_modules' || name === 'fixtures') return [];
    return statSync(path).isDirectory() ? filesUnder(path) : TEXT.test(name) ? [path] : [];
  });
}

const decisions = readdirSync(join(ROOT, 'docs/decisions'));

/** Whether a path named in `text` at `match` exists (a glob's prefix is not checked). */
function exists(path: string, after: string): boolean {
  if (GLOB.test(after[0] ?? '')) return true;
  const decision = DECISION.exec(path);
  if (decision) return decisions.some((name) => name.startsWith(`${decision[1]}-`));
  return existsSync(join(ROOT, path.replace(/[.]$/, '')));
}

/** `file:line path` of every path named in these files that does not exist. */
function stalePaths(files: readonly string[]): string[] {
  const stale: string[] = [];
  for (const file of files) {
    readFileSync(file, 'utf8')
      .split('\n')
      .forEach((line, index) => {
        for (const match of line.matchAll(PATH)) {
          const after = line.slice(match.index + match[0].length);
          if (!exists(match[1]!, after)) stale.push(`${relative(ROOT, file)}:${index + 1} ${match[1]}`);
        }
      });
  }
  return stale;
}

describe('paths named in comments and docs', () => {
  it('finds a stale path (the check can fail)', () => {
    const probe = join(ROOT, 'tests/unit/doc-paths.test.ts');
    expect(stalePaths([probe]).some((item) => item.endsWith('src/server/inbound/index.ts'))).toBe(true);
    // src/server/inbound/index.ts: gone with issue 37 (this line is the probe's stale path).
  });

  it('names only files, folders and decisions that exist', () => {
    const files = [...SCANNED.flatMap((dir) => filesUnder(join(ROOT, dir))), join(ROOT, 'README.md')].filter(
      (file) => !file.endsWith('doc-paths.test.ts'),
    );
    expect(files.length).toBeGreaterThan(300);
    expect(stalePaths(files)).toEqual([]);
  });
});
