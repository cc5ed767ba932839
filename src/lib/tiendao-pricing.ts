/**
 * Tiendao pricing (spec §9) and the WhatsApp message of the investment calculator (spec §7).
 * Pure: used by the page at build time to render both calculator states.
 */

export const TIENDAO_PRICING = {
  /** One-time set-up payment, US dollars. */
  setup: 500,
  /** Monthly payment, US dollars. */
  monthly: 45,
  /** Own domain instead of the tiendao subdomain, US dollars per year (added to the initial payment). */
  customDomainPerYear: 25,
  /** Support beyond the included hour, US dollars per hour. */
  extraSupportPerHour: 50,
} as const;

export interface TiendaoOptions {
  customDomain: boolean;
}

export interface TiendaoQuote {
  customDomain: boolean;
  /** Initial one-time total: 500, or 525 with the custom domain's first year. */
  initial: number;
  monthly: number;
  /** How the calculator summary shows the option. */
  customDomainLabel: 'No' | 'Sí (+$25/año)';
}

export function quoteTiendao({ customDomain }: TiendaoOptions): TiendaoQuote {
  return {
    customDomain,
    initial: TIENDAO_PRICING.setup + (customDomain ? TIENDAO_PRICING.customDomainPerYear : 0),
    monthly: TIENDAO_PRICING.monthly,
    customDomainLabel: customDomain ? 'Sí (+$25/año)' : 'No',
  };
}

/** The prefilled WhatsApp text for a configuration: greeting, then the summary. */
export function tiendaoWhatsappMessage(quote: TiendaoQuote): string {
  return [
    '¡Hola! Quiero configurar mi tienda con Tiendao.',
    '',
    'Resumen de mi configuración:',
    `• Pago inicial único: $${quote.initial}`,
    `• Mensualidad: $${quote.monthly}/mes`,
    `• Dominio personalizado: ${quote.customDomain ? 'Sí (+$25)' : 'No'}`,
  ].join('\n');
}
