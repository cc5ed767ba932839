/**
 * Text made safe inside HTML, as an element's text or a quoted attribute's value: the five characters
 * that could end either (`& < > " '`) become entities. One function for the mails
 * (src/server/mail/templates.ts) and the staff search's marked snippets (src/server/search-terms.ts).
 *
 * Two spellings of the same entities, because each output is pinned byte for byte where it is read:
 * the mails write the named ones (`&quot;`, `&#39;`: tests/unit/staff-helpers.test.ts and
 * tests/integration/support-desk.test.ts look for them), the search the numeric ones (`&#34;`,
 * tests/integration/search.test.ts). A browser reads both alike.
 */

const NAMED: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** `text` escaped for HTML; `numeric` writes `&#38;`, `&#60;`… instead of `&amp;`, `&lt;`… */
export function escapeHtml(text: string, spelling: 'named' | 'numeric' = 'named'): string {
  return text.replace(/[&<>"']/g, (char) =>
    spelling === 'numeric' ? `&#${char.charCodeAt(0)};` : (NAMED[char] ?? char),
  );
}
