/**
 * The one frame every e-mail of the site is rendered in: Spanish, HTML and plain text, the company's
 * name and colours, no remote images (mail clients block them and they leak when a mail is read).
 * Every value is escaped in the HTML; the plain text carries the same content. What each mail says
 * lives with its area: incident-mails.ts, welcome-mail.ts, meeting-mails.ts, contact-mails.ts,
 * account-mails.ts (a test reads them all: tests/unit/mail-words.test.ts).
 */
import { TIME_ZONE } from '../../domain/dates.ts';
import { escapeHtml } from '../../domain/html.ts';
import type { MailMessage } from './types.ts';

export interface MailBrand {
  companyName: string;
  siteUrl: string;
  phone: string;
  email: string;
  whatsappNumber: string;
  /**
   * `INBOUND_ADDRESS`: replies to incident mails come back to `local+TOKEN@domain` of it and join the
   * incident (src/server/channels/mail/threading.ts). Unset: they go to {@link MailBrand.staffInbox}.
   */
  inboundAddress?: string | null;
  /** `STAFF_INBOX`, where replies go without an inbound address (absent: the company's e-mail). */
  staffInbox?: string;
}

const NAVY = '#0b1f3a';
const TEAL = '#0d9488';
const INK = '#0f172a';
const MUTED = '#475569';
const LINE = '#e2e8f0';

/** Times are stored in UTC and shown in the Dominican Republic's time. */
// Building an Intl formatter costs about a millisecond; one serves every mail.
const DOMINICAN_TIME = new Intl.DateTimeFormat('es-DO', {
  timeZone: TIME_ZONE,
  dateStyle: 'long',
  timeStyle: 'short',
});

export function formatDominicanTime(iso: string): string {
  return DOMINICAN_TIME.format(new Date(iso));
}

function paragraphsHtml(text: string): string {
  return escapeHtml(text).replace(/\n/g, '<br>');
}

/** A path of the site as the absolute URL a mail links to. */
export function absoluteUrl(brand: MailBrand, path: string): string {
  return new URL(path, brand.siteUrl).href;
}

export interface MailContent {
  subject: string;
  /** Short line shown by mail clients beside the subject. */
  preheader: string;
  heading: string;
  /** Paragraphs before the details table. */
  intro: string[];
  /** Label/value rows; empty values are shown as 'No indicado'. */
  rows?: Array<[string, string]>;
  /**
   * A list of records, each a linked title over a line of text, one under the other (the staff digest's
   * incidents): unlike `rows`, nothing sits beside anything, so each line keeps the mail's whole width on
   * a phone.
   */
  items?: Array<{ title: string; href: string; text: string }>;
  /** A long free text (problem, message) shown in a quoted block. */
  quote?: { label: string; text: string };
  /** One call to action button. */
  action?: { label: string; href: string };
  /**
   * A question answered by one of several links (the rating's '¿Cómo te atendimos?' 1 to 5), after the
   * button: the question, a line under it, and the links in a row.
   */
  choices?: { question: string; hint?: string; links: Array<{ label: string; title: string; href: string }> };
  /** Paragraphs after the button. */
  outro?: string[];
}

/** Renders any of our mails; also meant for the staff area's welcome mail. */
export function renderMail(
  brand: MailBrand,
  to: string,
  content: MailContent,
  replyTo?: string | null,
): MailMessage {
  const rows = content.rows ?? [];
  const shown = (value: string) => (value.trim() === '' ? 'No indicado' : value);

  const textParts = [content.heading, '', ...content.intro.flatMap((line) => [line, ''])];
  if (rows.length) textParts.push(...rows.map(([label, value]) => `${label}: ${shown(value)}`), '');
  for (const item of content.items ?? []) textParts.push(item.title, item.text, item.href, '');
  if (content.quote) textParts.push(`${content.quote.label}:`, shown(content.quote.text), '');
  if (content.action) textParts.push(`${content.action.label}: ${content.action.href}`, '');
  if (content.choices)
    textParts.push(
      content.choices.question,
      ...(content.choices.hint ? [content.choices.hint] : []),
      ...content.choices.links.map((link) => `${link.title}: ${link.href}`),
      '',
    );
  if (content.outro) textParts.push(...content.outro.flatMap((line) => [line, '']));
  textParts.push('--', brand.companyName, `${brand.phone} · ${brand.email}`, brand.siteUrl);

  const rowsHtml = rows
    .map(
      ([label, value]) =>
        `<tr><td style="padding:8px 12px 8px 0;color:${MUTED};font-size:14px;vertical-align:top;white-space:nowrap">${escapeHtml(label)}</td>` +
        `<td style="padding:8px 0;color:${INK};font-size:14px;font-weight:600;word-break:break-word">${escapeHtml(shown(value))}</td></tr>`,
    )
    .join('');
  const itemsHtml = (content.items ?? [])
    .map(
      (item) =>
        `<div style="padding:10px 0;border-bottom:1px solid ${LINE}"><a href="${escapeHtml(item.href)}" style="color:${NAVY};font-size:14px;font-weight:700;text-decoration:underline">${escapeHtml(item.title)}</a>` +
        `<p style="margin:4px 0 0;font-size:14px;line-height:1.5;color:${INK};word-break:break-word">${escapeHtml(item.text)}</p></div>`,
    )
    .join('');
  const html = `<!doctype html>
<html lang="es"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(content.subject)}</title></head>
<body style="margin:0;padding:0;background:#f3f7fd;font-family:Segoe UI,Roboto,Helvetica,Arial,sans-serif;color:${INK}">
<span style="display:none;max-height:0;overflow:hidden">${escapeHtml(content.preheader)}</span>
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f3f7fd;padding:24px 12px">
<tr><td align="center">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:600px;background:#ffffff;border-radius:16px;overflow:hidden;border:1px solid ${LINE}">
<tr><td style="background:${NAVY};padding:20px 28px;color:#ffffff;font-size:18px;font-weight:700;letter-spacing:.2px">${escapeHtml(brand.companyName)}<div style="height:3px;width:48px;background:${TEAL};margin-top:10px;border-radius:2px"></div></td></tr>
<tr><td style="padding:28px">
<h1 style="margin:0 0 16px;font-size:22px;line-height:1.3;color:${NAVY}">${escapeHtml(content.heading)}</h1>
${content.intro.map((line) => `<p style="margin:0 0 14px;font-size:15px;line-height:1.6">${paragraphsHtml(line)}</p>`).join('\n')}
${rows.length ? `<table role="presentation" cellpadding="0" cellspacing="0" style="margin:8px 0 16px;border-top:1px solid ${LINE};width:100%">${rowsHtml}</table>` : ''}
${itemsHtml ? `<div style="margin:8px 0 16px;border-top:1px solid ${LINE}">${itemsHtml}</div>` : ''}
${content.quote ? `<p style="margin:16px 0 6px;font-size:13px;color:${MUTED};text-transform:uppercase;letter-spacing:.6px">${escapeHtml(content.quote.label)}</p><div style="margin:0 0 16px;padding:14px 16px;background:#f8fafc;border-left:4px solid ${TEAL};border-radius:8px;font-size:15px;line-height:1.6;word-break:break-word">${paragraphsHtml(shown(content.quote.text))}</div>` : ''}
${content.action ? `<p style="margin:24px 0"><a href="${escapeHtml(content.action.href)}" style="display:inline-block;background:${TEAL};color:#ffffff;text-decoration:none;font-weight:600;padding:12px 20px;border-radius:12px">${escapeHtml(content.action.label)}</a></p>` : ''}
${content.choices ? `<p style="margin:24px 0 6px;font-size:16px;font-weight:700;color:${NAVY}">${escapeHtml(content.choices.question)}</p>${content.choices.hint ? `<p style="margin:0 0 10px;font-size:14px;color:${MUTED}">${escapeHtml(content.choices.hint)}</p>` : ''}<p style="margin:0 0 20px">${content.choices.links.map((link) => `<a href="${escapeHtml(link.href)}" title="${escapeHtml(link.title)}" style="display:inline-block;min-width:44px;margin:0 6px 6px 0;padding:10px 0;text-align:center;border:2px solid ${TEAL};border-radius:12px;color:${NAVY};text-decoration:none;font-weight:700;font-size:16px">${escapeHtml(link.label)}</a>`).join('')}</p>` : ''}
${(content.outro ?? []).map((line) => `<p style="margin:0 0 14px;font-size:15px;line-height:1.6">${paragraphsHtml(line)}</p>`).join('\n')}
</td></tr>
<tr><td style="padding:18px 28px;border-top:1px solid ${LINE};color:${MUTED};font-size:13px;line-height:1.5">${escapeHtml(brand.companyName)} · ${escapeHtml(brand.phone)} · <a href="mailto:${escapeHtml(brand.email)}" style="color:${TEAL}">${escapeHtml(brand.email)}</a><br><a href="${escapeHtml(brand.siteUrl)}" style="color:${TEAL}">${escapeHtml(brand.siteUrl)}</a></td></tr>
</table>
</td></tr></table>
</body></html>`;

  return { to, replyTo: replyTo ?? null, subject: content.subject, text: textParts.join('\n'), html };
}

/** `"Name" <address>` with the name quoted, so commas or angle brackets in a name cannot add recipients. */
export function formatAddress(name: string, address: string): string {
  const safeName = name.replace(/["\\\r\n<>]/g, '').trim();
  return safeName ? `"${safeName}" <${address}>` : address;
}
