/**
 * The random tokens of the links an incident's mails carry (the follow-up link, the rating links):
 * 144 bits, base64url, stored only as their SHA-256, so a copy of the database opens no link.
 */
import { createHash, randomBytes } from 'node:crypto';

/** 18 random bytes, base64url: 24 characters. */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{24}$/;

/** A new token for a link. */
export const newLinkToken = (): string => randomBytes(18).toString('base64url');

/** Whether `token` has a link token's shape (a malformed one is not even looked up). */
export const isLinkToken = (token: string): boolean => TOKEN_PATTERN.test(token);

/** What the database keeps of a token. */
export const hashLinkToken = (token: string): string => createHash('sha256').update(token).digest('hex');
