/**
 * The server's worker threads (the blob writer on SQLite, the MIME reader) never keep a process alive
 * once nothing waits on them, and keep it alive while something does: a script that stores a file and
 * reads a mail prints both results and ends by itself.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';
import { ROOT } from '../support/server.ts';

it('a script that used both worker threads prints their results and ends by itself', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'vertice-workers-'));
  try {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['tests/support/worker-exit-child.ts', join(dir, 'site.db')],
      { cwd: ROOT, timeout: 20_000 },
    );
    const sha = createHash('sha256').update(new Uint8Array(20_000).fill(97)).digest('hex');
    expect(stdout.trim()).toBe(`${sha} Factura`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
