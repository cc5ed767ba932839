/**
 * WhatsApp click-to-chat links (https://faq.whatsapp.com/5913398998672934).
 * Pure and dependency-free: shared by the Tiendao calculator and the incident follow-up.
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
