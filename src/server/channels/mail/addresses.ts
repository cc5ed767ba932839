/**
 * The addresses of a mail's header as real mail clients write them (issue 41), read with postal-mime's
 * address parser after two steps it does not take itself:
 * - encoded words are decoded first, each run of them given to the parser as one quoted string:
 *   Outlook writes a corporate name as `=?iso-8859-1?Q?B=FCrling,=20Andreas?= <smith@example.com>`, a
 *   comma inside the encoded word (RFC 2047 forbids it there), which the parser took for the end of an
 *   address ('Bürling' with no address, so the mail had no sender);
 * - comments (RFC 5322 CFWS: `pete(his account)@silly.test(his host)`) are dropped from the address,
 *   which would otherwise be stored with them, and a reply would go nowhere.
 * Nothing here touches the database.
 */
import { addressParser, decodeWords } from 'postal-mime';
import { looksLikeEmail } from '../../../domain/email.ts';

export interface Mailbox {
  /** Lower case, without comments or angle brackets; '' when the entry names none. */
  address: string;
  name: string;
}

/** A run of encoded words (RFC 2047), separated only by white space (which decoding drops). */
const ENCODED_RUN = /=\?[^?\s]+\?[bq]\?[^?\s]*\?=(?:\s+=\?[^?\s]+\?[bq]\?[^?\s]*\?=)*/iy;

const quotedContent = (text: string) => text.replace(/[\\"]/g, (char) => `\\${char}`);

/**
 * The header with its encoded words decoded: outside a quoted string, each run becomes a quoted string
 * of its own (so that a comma or an `@` inside stays part of the name); inside one, its text, escaped.
 */
export function decodedAddressHeader(value: string): string {
  let result = '';
  let quoted = false;
  for (let index = 0; index < value.length;) {
    const char = value[index]!;
    if (char === '\\' && quoted) {
      result += value.slice(index, index + 2);
      index += 2;
      continue;
    }
    if (char === '"') {
      quoted = !quoted;
      result += char;
      index += 1;
      continue;
    }
    ENCODED_RUN.lastIndex = index;
    const run = ENCODED_RUN.exec(value);
    if (run) {
      const text = quotedContent(decodeWords(run[0]));
      result += quoted ? text : `"${text}"`;
      index += run[0].length;
      continue;
    }
    result += char;
    index += 1;
  }
  return result;
}

/** The address without its comments (nested, with escapes), white space or angle brackets. */
export function withoutComments(address: string): string {
  let result = '';
  let depth = 0;
  let quoted = false;
  for (let index = 0; index < address.length; index += 1) {
    const char = address[index]!;
    if (char === '\\' && (quoted || depth > 0)) {
      if (depth === 0) result += address.slice(index, index + 2);
      index += 1;
      continue;
    }
    if (depth === 0 && char === '"') quoted = !quoted;
    if (!quoted && char === '(') depth += 1;
    else if (!quoted && char === ')' && depth > 0) depth -= 1;
    else if (depth === 0) result += char;
  }
  return result.replace(/\s+/g, '').replace(/^<|>$/g, '');
}

/** Every mailbox an address header names (groups flattened), in order; an empty header names none. */
export function mailboxesOf(value: string | undefined): Mailbox[] {
  if (!value?.trim()) return [];
  return addressParser(decodedAddressHeader(value), { flatten: true }).map((mailbox) => ({
    address: withoutComments(mailbox.address ?? '').toLowerCase(),
    name: (mailbox.name ?? '').trim(),
  }));
}

/** Who sent the mail, and whether that is certain (issue 41, item 5). */
export interface SenderOf {
  address: string;
  name: string;
  /** Not the first mailbox of From: a later one, or Reply-To's ('Remitente incierto' on the incident). */
  uncertain: boolean;
}

/**
 * The sender: the first mailbox of From when it has an address; else the first usable one of From
 * (`"Yangzhou ABC Lighting Equipment " <>, "LTD" <ly@example.com>`), else of Reply-To, marked uncertain;
 * null when neither names an address.
 */
export function senderOf(from: string | undefined, replyTo: string | undefined): SenderOf | null {
  const fromList = mailboxesOf(from);
  const first = fromList[0];
  if (first?.address.includes('@')) return { ...first, uncertain: false };
  const later = [...fromList, ...mailboxesOf(replyTo)].find((mailbox) => looksLikeEmail(mailbox.address));
  return later ? { ...later, uncertain: true } : null;
}
