import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/server/config.ts';
import { organizationJsonLd, productJsonLd } from '../../src/server/seo.ts';

const config = parseConfig({ SITE_URL: 'https://www.ejemplo.com.do', COMPANY_NAME: 'Empresa Ejemplo SRL', COMPANY_PHONE: '+1 829-555-0000' });

describe('structured data', () => {
  it('describes the company from the configuration, with absolute URLs', () => {
    const data = organizationJsonLd(config);
    expect(data['@context']).toBe('https://schema.org');
    expect(data.name).toBe('Empresa Ejemplo SRL');
    expect(data.url).toBe('https://www.ejemplo.com.do/');
    expect(data.telephone).toBe('+1 829-555-0000');
    expect(data.logo).toBe('https://www.ejemplo.com.do/apple-touch-icon.png');
    expect(data.sameAs).toEqual([config.COMPANY_SOCIAL_URL]);
    expect(JSON.parse(JSON.stringify(data))).toEqual(data);
  });

  it('describes a product page, sold by the company', () => {
    const data = productJsonLd(config, { name: 'AdmCloud', description: 'ERP en la nube', path: '/producto/admcloud', image: '/og/default.png' });
    expect(data['@type']).toBe('Product');
    expect(data.url).toBe('https://www.ejemplo.com.do/producto/admcloud');
    expect(data.image).toBe('https://www.ejemplo.com.do/og/default.png');
    expect((data.offers as { seller: { name: string } }).seller.name).toBe('Empresa Ejemplo SRL');
    expect(productJsonLd(config, { name: 'X', description: 'Y', path: '/p' })).not.toHaveProperty('image');
    const priced = productJsonLd(config, { name: 'Tiendao', description: 'Tienda', path: '/producto/tiendao', priceUsd: 500 });
    expect(priced.offers).toMatchObject({ price: '500.00', priceCurrency: 'USD' });
  });
});
