/**
 * The secret that signs session cookies: `AUTH_SECRET` when set (required when several processes
 * serve the site), otherwise one generated on first use and kept in `data/auth-secret` (mode 0600)
 * so that sessions survive a restart.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { getConfig } from './config.ts';

export const SECRET_FILE = 'data/auth-secret';

export function getAuthSecret(file = resolve(SECRET_FILE)): string {
  const configured = getConfig().AUTH_SECRET;
  if (configured) return configured;
  try {
    const stored = readFileSync(file, 'utf8').trim();
    if (stored.length >= 32) return stored;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  mkdirSync(dirname(file), { recursive: true });
  const secret = randomBytes(32).toString('base64url');
  try {
    // `wx`: when two processes start at once, the second keeps the first one's secret.
    writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return readFileSync(file, 'utf8').trim();
    throw error;
  }
  chmodSync(file, 0o600);
  return secret;
}
