/**
 * What a `multipart/report` about one of our mails says (issue 41, item 3), read from its parts:
 * - `report-type=delivery-status` (RFC 3464): a bounce only when a recipient's `Action: failed` or its
 *   `Status` is 5.x.x (a permanent failure); a delay when `Action: delayed` or a 4.x.x status; anything
 *   else (`delivered`, `relayed`, `expanded`, or no `message/delivery-status` part) says nothing to act on;
 * - `report-type=disposition-notification` (RFC 8098, a read receipt): read when its
 *   `message/disposition-notification` part's `Disposition` is `displayed` (`deleted`, `denied`… are not);
 * - `report-type=feedback-report` (ARF, RFC 5965, a mailbox provider's spam complaint): a complaint when
 *   its `message/feedback-report` part's `Feedback-Type` is `abuse` (`not-spam` and the others are not).
 * The mails it names are the `Message-ID`s (and `Original-Message-ID`s) of its parts: the original in
 * `message/rfc822` or `text/rfc822-headers`, or the report's own part.
 */

/** What the report says about the mails it names. `other`: nothing to act on. */
export type MailReportKind = 'bounce' | 'delay' | 'read' | 'complaint' | 'other';

export interface MailReport {
  kind: MailReportKind;
  /** The ids of the messages it reports on (without brackets). */
  ids: string[];
}

/** A part of the report as the MIME reader hands it (postal-mime's attachments). */
export interface ReportPart {
  mimeType: string;
  content: ArrayBuffer | Uint8Array | string;
}

const NAMING_PART =
  /^(message\/(rfc822|delivery-status|global-delivery-status|disposition-notification|global-disposition-notification|feedback-report|rfc822-headers|global|global-headers)|text\/rfc822-headers)$/i;

function partText(content: ReportPart['content']): string {
  return typeof content === 'string' ? content : new TextDecoder().decode(content);
}

/** The values of a field (`Action`, `Status`…) in a part's header-like lines, lower case. */
function fieldValues(text: string, name: string): string[] {
  return [...text.matchAll(new RegExp(`^${name}[ \\t]*:[ \\t]*([^\\r\\n]*)`, 'gim'))].map((match) =>
    match[1]!.trim().toLowerCase(),
  );
}

function kindOf(reportType: string, parts: readonly ReportPart[]): MailReportKind {
  const texts = (pattern: RegExp) =>
    parts.filter((part) => pattern.test(part.mimeType)).map((part) => partText(part.content));
  if (reportType === 'disposition-notification') {
    const dispositions = texts(/^message\/(global-)?disposition-notification$/i).flatMap((text) =>
      fieldValues(text, 'Disposition'),
    );
    // 'manual-action/MDN-sent-manually; displayed' (the type after the semicolon, maybe with modifiers).
    return dispositions.some((value) => /;\s*displayed\b/.test(value)) ? 'read' : 'other';
  }
  if (reportType === 'feedback-report') {
    const types = texts(/^message\/feedback-report$/i).flatMap((text) => fieldValues(text, 'Feedback-Type'));
    return types.includes('abuse') ? 'complaint' : 'other';
  }
  const statuses = texts(/^message\/(global-)?delivery-status$/i);
  const actions = statuses.flatMap((text) => fieldValues(text, 'Action'));
  const codes = statuses.flatMap((text) => fieldValues(text, 'Status'));
  if (actions.includes('failed') || codes.some((code) => /^5\.\d{1,3}\.\d{1,3}\b/.test(code)))
    return 'bounce';
  if (actions.includes('delayed') || codes.some((code) => /^4\.\d{1,3}\.\d{1,3}\b/.test(code)))
    return 'delay';
  return 'other';
}

/** The report a mail is (its `Content-Type` is `multipart/report`), or null when it is none. */
export function mailReportOf(
  contentType: string | undefined,
  parts: readonly ReportPart[],
): MailReport | null {
  if (!/^\s*multipart\/report/i.test(contentType ?? '')) return null;
  const reportType = (/;\s*report-type\s*=\s*"?([\w.-]+)/i.exec(contentType ?? '')?.[1] ?? '').toLowerCase();
  const ids = [
    ...new Set(
      parts
        .filter((part) => NAMING_PART.test(part.mimeType))
        .flatMap((part) =>
          [
            ...partText(part.content).matchAll(/^(?:original-|x-original-)?message-id:\s*<([^<>\s]+)>/gim),
          ].map((match) => match[1]!),
        ),
    ),
  ];
  return { kind: kindOf(reportType, parts), ids };
}
