import { describe, expect, it } from 'vitest';
import { quoteTiendao, tiendaoWhatsappMessage } from '../../src/lib/tiendao-pricing.ts';
import { whatsappLink } from '../../src/lib/whatsapp.ts';

describe('quoteTiendao', () => {
  it('without custom domain: 500 initial, 45 monthly, "No"', () => {
    expect(quoteTiendao({ customDomain: false })).toEqual({
      customDomain: false,
      initial: 500,
      monthly: 45,
      customDomainLabel: 'No',
    });
  });

  it('with custom domain: 525 initial, 45 monthly, "Sí (+$25/año)"', () => {
    expect(quoteTiendao({ customDomain: true })).toEqual({
      customDomain: true,
      initial: 525,
      monthly: 45,
      customDomainLabel: 'Sí (+$25/año)',
    });
  });
});

describe('tiendaoWhatsappMessage', () => {
  it('greets, then summarises the configuration without custom domain', () => {
    expect(tiendaoWhatsappMessage(quoteTiendao({ customDomain: false }))).toBe(
      '¡Hola! Quiero configurar mi tienda con Tiendao.\n\nResumen de mi configuración:\n• Pago inicial único: $500\n• Mensualidad: $45/mes\n• Dominio personalizado: No',
    );
  });

  it('with custom domain says 525 and "Sí (+$25)"', () => {
    expect(tiendaoWhatsappMessage(quoteTiendao({ customDomain: true }))).toBe(
      '¡Hola! Quiero configurar mi tienda con Tiendao.\n\nResumen de mi configuración:\n• Pago inicial único: $525\n• Mensualidad: $45/mes\n• Dominio personalizado: Sí (+$25)',
    );
  });

  it('encodes into the exact click-to-chat URL', () => {
    expect(whatsappLink('18095550142', tiendaoWhatsappMessage(quoteTiendao({ customDomain: true })))).toBe(
      'https://wa.me/18095550142?text=%C2%A1Hola!%20Quiero%20configurar%20mi%20tienda%20con%20Tiendao.%0A%0AResumen%20de%20mi%20configuraci%C3%B3n%3A%0A%E2%80%A2%20Pago%20inicial%20%C3%BAnico%3A%20%24525%0A%E2%80%A2%20Mensualidad%3A%20%2445%2Fmes%0A%E2%80%A2%20Dominio%20personalizado%3A%20S%C3%AD%20(%2B%2425)',
    );
  });
});
