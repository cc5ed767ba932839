import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { ROOT } from '../support/server.ts';

it('pins every dependency to an exact version or a caret range, never `*` or an open range', () => {
  const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Record<
    string,
    Record<string, string> | undefined
  >;
  const ranges = { ...manifest.dependencies, ...manifest.devDependencies };
  const loose = Object.entries(ranges).filter(([, range]) => !/^\^?\d+(\.\d+){0,2}$/.test(range));
  expect(Object.keys(ranges).length).toBeGreaterThan(10);
  expect(loose).toEqual([]);
});
