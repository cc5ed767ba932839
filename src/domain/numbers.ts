/**
 * Numbers as every page, mail and message of the site writes them (issue 39, polish): '5.000 filas',
 * '2.000 caracteres', '1,5 MB'. A point groups the thousands from 1.000 up and a comma marks the
 * decimals, as the texts written by hand here ('Hasta 5.000 caracteres', '1,5 h') always did.
 * Not `Intl.NumberFormat('es-DO')`: in Node 24 (ICU's CLDR data) it writes '5,000' and '1.5', and
 * 'es' alone writes '2000' (no point below 10.000).
 */
const formats = new Map<string, Intl.NumberFormat>();

/** `value` in the site's one format; `fractionDigits`: at most (and, with `fixed`, exactly) that many decimals. */
export function formatNumber(value: number, fractionDigits = 0, fixed = false): string {
  const key = `${fractionDigits}:${fixed}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.NumberFormat('es', {
      useGrouping: 'always',
      maximumFractionDigits: fractionDigits,
      minimumFractionDigits: fixed ? fractionDigits : 0,
    });
    formats.set(key, format);
  }
  return format.format(value);
}
