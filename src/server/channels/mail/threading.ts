/**
 * Every mail we send a customer about an incident is one message of one thread (issue 21):
 *
 * - its own random `Message-ID` at the domain of `INBOUND_ADDRESS` (else of `SITE_URL`), recorded in
 *   `incident_mails`, so that a reply naming it in `In-Reply-To`/`References` finds the incident;
 * - `In-Reply-To` and `References` naming the incident's first mail, so that the confirmation, the
 *   state notices and the replies are one conversation in Gmail and Outlook;
 * - `Reply-To`: with `INBOUND_ADDRESS`, the incident's own address `local+TOKEN@domain`, TOKEN 128
 *   random bits stored only as its SHA-256 (another secret than the follow-up link's); without it,
 *   `STAFF_INBOX`, so that no reply is lost at the sender's `no-reply` address.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/index.ts';
import type { MailBrand } from '../../mail/index.ts';
import type { QueuedMail } from '../../mail/index.ts';

/** 16 random bytes as lower-case hex: mailboxes may fold the case of a local part, hex survives it. */
const REPLY_TOKEN_PATTERN = /^[0-9a-f]{32}$/;

export const hashReplyToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** The domain our Message-IDs are at: the inbound address's, else the site's host. */
export function messageIdDomain(brand: Pick<MailBrand, 'inboundAddress' | 'siteUrl'>): string {
  return brand.inboundAddress?.split('@')[1] ?? new URL(brand.siteUrl).hostname;
}

/** The token of a plus-address of the inbound address (`local+TOKEN@domain`), or null when it is none. */
export function replyTokenOf(address: string, inboundAddress: string | null | undefined): string | null {
  if (!inboundAddress) return null;
  const [local, domain] = inboundAddress.toLowerCase().split('@');
  const match = /^([^@+]+)\+([^@]+)@(.+)$/.exec(address.trim().toLowerCase());
  if (!match || match[1] !== local || match[3] !== domain) return null;
  const token = match[2]!;
  return REPLY_TOKEN_PATTERN.test(token) ? token : null;
}

/** A Message-ID without its angle brackets (its case kept: the local part is case-sensitive). */
export function normalizeMessageId(value: string): string {
  return value.trim().replace(/^<|>$/g, '').trim();
}

/**
 * Gives a customer mail about an incident its Message-ID, threading headers and Reply-To, and records
 * it, in the caller's transaction (the one that queues the mail). `inReplyTo`: the customer's own
 * message this mail answers (the confirmation of an incident opened by mail), named before our first.
 */
export async function threadIncidentMail<M extends QueuedMail>(
  trx: Kysely<Database>,
  incidentId: number,
  mail: M,
  brand: Pick<MailBrand, 'inboundAddress' | 'staffInbox' | 'siteUrl' | 'email'>,
  now: Date,
  inReplyTo?: string | null,
): Promise<M> {
  const domain = messageIdDomain(brand);
  const messageId = `${randomBytes(16).toString('hex')}@${domain}`;
  const first = await trx
    .selectFrom('incidentMails')
    .select('messageId')
    .where('incidentId', '=', incidentId)
    .orderBy('createdAt')
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
  let replyTo = brand.staffInbox ?? brand.email;
  let replyTokenHash: string | null = null;
  if (brand.inboundAddress) {
    const token = randomBytes(16).toString('hex');
    const [local, at] = brand.inboundAddress.split('@');
    replyTo = `${local}+${token}@${at}`;
    replyTokenHash = hashReplyToken(token);
  }
  await trx
    .insertInto('incidentMails')
    .values({ incidentId, messageId, kind: mail.kind, replyTokenHash, createdAt: now.toISOString() })
    .execute();
  const named = [inReplyTo ? normalizeMessageId(inReplyTo) : null, first?.messageId ?? null].filter(
    (id): id is string => Boolean(id),
  );
  const threading = named.length
    ? { 'In-Reply-To': `<${named.at(-1)}>`, References: named.map((id) => `<${id}>`).join(' ') }
    : {};
  return { ...mail, messageId, replyTo, headers: { ...mail.headers, ...threading } };
}
