/**
 * The JSON-LD builders of src/lib/json-ld.ts, against a configuration of their own: what each page
 * type publishes, with every URL absolute under SITE_URL, read when the builder runs.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  absoluteUrl,
  blogJsonLd,
  blogPostingJsonLd,
  organizationJsonLd,
  productJsonLd,
} from '../../src/lib/json-ld.ts';
import { parseConfig, type Config } from '../../src/server/config.ts';

// getConfig() keeps the process's settings under this global key (src/server/config.ts); the tests
// put their own there, and put back whatever was there before.
const CONFIG_KEY = Symbol.for('vertice.config');
const holder = globalThis as { [CONFIG_KEY]?: Config };
let previous: Config | undefined;

const useConfig = (env: Record<string, string>) => {
  holder[CONFIG_KEY] = parseConfig(env);
};

beforeEach(() => {
  previous = holder[CONFIG_KEY];
  useConfig({
    SITE_URL: 'https://www.ejemplo.com.do',
    COMPANY_NAME: 'Empresa Ejemplo SRL',
    COMPANY_PHONE: '+1 829-555-0000',
    COMPANY_EMAIL: 'hola@ejemplo.com.do',
    COMPANY_ADDRESS: 'Calle El Conde 10, Zona Colonial, Santo Domingo, República Dominicana',
    COMPANY_SOCIAL_URL: 'https://www.instagram.com/ejemplo',
  });
});

afterEach(() => {
  if (previous) holder[CONFIG_KEY] = previous;
  else delete holder[CONFIG_KEY];
});

describe('absoluteUrl', () => {
  it('resolves a site path under SITE_URL', () => {
    expect(absoluteUrl('/')).toBe('https://www.ejemplo.com.do/');
    expect(absoluteUrl('/producto/tiendao#calculadora')).toBe(
      'https://www.ejemplo.com.do/producto/tiendao#calculadora',
    );
  });

  it('reads SITE_URL at each call, so a new setting applies at once', () => {
    const input = {
      name: 'AdmCloud',
      description: 'ERP',
      category: 'ERP en la nube',
      image: '/_astro/a.svg',
      path: '/producto/admcloud',
    };
    expect(productJsonLd(input).url).toBe('https://www.ejemplo.com.do/producto/admcloud');
    useConfig({ SITE_URL: 'https://otra.example.org' });
    expect(absoluteUrl('/blog')).toBe('https://otra.example.org/blog');
    expect(productJsonLd(input).url).toBe('https://otra.example.org/producto/admcloud');
  });
});

describe('organizationJsonLd', () => {
  it('describes the company as a LocalBusiness in Santo Domingo, from the configuration', () => {
    const data = organizationJsonLd();
    expect(data['@context']).toBe('https://schema.org');
    expect(data['@type']).toBe('LocalBusiness');
    expect(data['@id']).toBe('https://www.ejemplo.com.do/#organizacion');
    expect(data.name).toBe('Empresa Ejemplo SRL');
    expect(data.url).toBe('https://www.ejemplo.com.do/');
    expect(data.logo).toBe('https://www.ejemplo.com.do/favicon.svg');
    expect(data.telephone).toBe('+1 829-555-0000');
    expect(data.email).toBe('hola@ejemplo.com.do');
    expect(data.address).toEqual({
      '@type': 'PostalAddress',
      streetAddress: 'Calle El Conde 10, Zona Colonial',
      addressLocality: 'Santo Domingo',
      addressRegion: 'Distrito Nacional',
      addressCountry: 'DO',
    });
    expect(data.sameAs).toEqual(['https://www.instagram.com/ejemplo']);
    expect(JSON.parse(JSON.stringify(data))).toEqual(data);
  });
});

describe('productJsonLd', () => {
  it('describes a product page: name, description, brand, category, image and page under SITE_URL', () => {
    const data = productJsonLd({
      name: 'AdmCloud',
      description: 'ERP en la nube con IA y facturación electrónica.',
      category: 'ERP en la nube',
      image: '/_astro/admcloud-contabilidad.DZ11NRhH.svg',
      path: '/producto/admcloud',
    });
    expect(data).toEqual({
      '@context': 'https://schema.org',
      '@type': 'Product',
      name: 'AdmCloud',
      description: 'ERP en la nube con IA y facturación electrónica.',
      category: 'ERP en la nube',
      brand: { '@type': 'Brand', name: 'AdmCloud' },
      image: 'https://www.ejemplo.com.do/_astro/admcloud-contabilidad.DZ11NRhH.svg',
      url: 'https://www.ejemplo.com.do/producto/admcloud',
    });
    expect(data).not.toHaveProperty('offers');
  });

  it('adds the published price as an Offer in US dollars', () => {
    const data = productJsonLd({
      name: 'Tiendao',
      description: 'Tienda por WhatsApp.',
      category: 'Aplicación web de pedidos para supermercados',
      image: '/_astro/tiendao-app.svg',
      path: '/producto/tiendao',
      offer: {
        price: 500,
        description: 'Pago único de $500 y $45 al mes',
        path: '/producto/tiendao#calculadora',
      },
    });
    expect(data.offers).toEqual({
      '@type': 'Offer',
      price: '500',
      priceCurrency: 'USD',
      description: 'Pago único de $500 y $45 al mes',
      url: 'https://www.ejemplo.com.do/producto/tiendao#calculadora',
    });
  });
});

describe('blog', () => {
  const post = { title: 'Cómo elegir el mejor ERP', path: '/blog/mejor-erp-2025', date: '2025-03-03' };

  it('lists the posts of the blog with absolute URLs', () => {
    const data = blogJsonLd([post]);
    expect(data['@type']).toBe('Blog');
    expect(data.name).toBe('Blog de Empresa Ejemplo SRL');
    expect(data.url).toBe('https://www.ejemplo.com.do/blog');
    expect(data.inLanguage).toBe('es-DO');
    expect(data.blogPost).toEqual([
      {
        '@type': 'BlogPosting',
        headline: 'Cómo elegir el mejor ERP',
        url: 'https://www.ejemplo.com.do/blog/mejor-erp-2025',
        datePublished: '2025-03-03',
      },
    ]);
  });

  it('describes a post written and published by the company', () => {
    const data = blogPostingJsonLd({
      ...post,
      description: 'Guía práctica.',
      image: '/og/blog/mejor-erp-2025.png',
    });
    expect(data['@type']).toBe('BlogPosting');
    expect(data.headline).toBe('Cómo elegir el mejor ERP');
    expect(data.description).toBe('Guía práctica.');
    expect(data.datePublished).toBe('2025-03-03');
    expect(data.dateModified).toBe('2025-03-03');
    expect(data.image).toBe('https://www.ejemplo.com.do/og/blog/mejor-erp-2025.png');
    expect(data.url).toBe('https://www.ejemplo.com.do/blog/mejor-erp-2025');
    expect(data.mainEntityOfPage).toEqual({
      '@type': 'WebPage',
      '@id': 'https://www.ejemplo.com.do/blog/mejor-erp-2025',
    });
    const company = {
      '@type': 'Organization',
      name: 'Empresa Ejemplo SRL',
      url: 'https://www.ejemplo.com.do/',
      logo: { '@type': 'ImageObject', url: 'https://www.ejemplo.com.do/favicon.svg' },
    };
    expect(data.author).toEqual(company);
    expect(data.publisher).toEqual(company);
  });
});
