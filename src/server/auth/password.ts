/**
 * Password hashing with Node 24's built-in argon2id at OWASP's recommended parameters (m=19 MiB,
 * t=2, p=1). Better Auth's default scrypt settings are well below OWASP's minimum; we plug these in
 * through its `password.hash/verify` hooks. Hashes use the PHC string format, so the parameters
 * travel with each hash and can be raised later without invalidating old ones.
 */
import { argon2, randomBytes, timingSafeEqual } from 'node:crypto';

export const ARGON2_PARAMS = { memory: 19 * 1024, passes: 2, parallelism: 1, tagLength: 32 } as const;

function derive(
  password: string,
  salt: Buffer,
  params: { memory: number; passes: number; parallelism: number; tagLength: number },
): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    argon2('argon2id', { message: password, nonce: salt, ...params }, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

const b64 = (buffer: Buffer) => buffer.toString('base64').replace(/=+$/, '');

/** `$argon2id$v=19$m=19456,t=2,p=1$<salt>$<hash>` */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, ARGON2_PARAMS);
  const { memory, passes, parallelism } = ARGON2_PARAMS;
  return `$argon2id$v=19$m=${memory},t=${passes},p=${parallelism}$${b64(salt)}$${b64(key)}`;
}

const PHC = /^\$argon2id\$v=19\$m=(\d+),t=(\d+),p=(\d+)\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)$/;

/** Constant-time comparison; false (never an exception) for a malformed or foreign hash. */
export async function verifyPassword(hash: string, password: string): Promise<boolean> {
  const match = PHC.exec(hash);
  if (!match) return false;
  const [, m, t, p, salt, expected] = match;
  const expectedKey = Buffer.from(expected!, 'base64');
  if (expectedKey.length < 16) return false;
  const key = await derive(password, Buffer.from(salt!, 'base64'), {
    memory: Number(m),
    passes: Number(t),
    parallelism: Number(p),
    tagLength: expectedKey.length,
  });
  return timingSafeEqual(key, expectedKey);
}
