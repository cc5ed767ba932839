/**
 * WhatsApp click-to-chat links (https://faq.whatsapp.com/5913398998672934).
 * Pure and dependency-free: shared by the Tiendao calculator, the support pages and the mails.
 */

/**
 * `https://wa.me/{digits}` with the message prefilled. The number may be written with spaces, `+`,
 * dashes or parentheses; wa.me wants the bare international digits.
 */
export function whatsappLink(number: string, text?: string): string {
  const digits = number.replace(/\D/g, '');
  if (digits.length < 8 || digits.length > 15) {
    throw new RangeError(`Número de WhatsApp no válido: «${number}»`);
  }
  const base = `https://wa.me/${digits}`;
  return text ? `${base}?text=${encodeURIComponent(text)}` : base;
}

/**
 * The wa.me digits of a phone written as a Dominican number (area codes 809, 829 and 849, with or
 * without the country code 1 and any spaces, dashes, dots or parentheses); null otherwise.
 */
export function dominicanWhatsappNumber(phone: string): string | null {
  if (!/^[\d\s()+.-]+$/.test(phone.trim())) return null;
  const digits = phone.replace(/\D/g, '');
  const national = digits.length === 11 && digits.startsWith('1') ? digits.slice(1) : digits;
  return /^8[024]9\d{7}$/.test(national) ? `1${national}` : null;
}

/**
 * A WhatsApp number as people read it, the one format the site shows: a North American number (country
 * code 1, as the Dominican Republic's) as `+1 809-555-0142`; any other as `+` and its digits.
 */
export function formatWhatsappNumber(number: string): string {
  const digits = number.replace(/\D/g, '');
  const nanp = /^1(\d{3})(\d{3})(\d{4})$/.exec(digits);
  return nanp ? `+1 ${nanp[1]}-${nanp[2]}-${nanp[3]}` : `+${digits}`;
}
