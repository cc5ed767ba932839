import { describe, expect, it } from 'vitest';
import { BUSINESS_FOCUSES } from '../../src/content/catalog/recommendations.ts';
import { recommend } from '../../src/lib/recommendation.ts';

describe('recommend', () => {
  it('offers exactly the three focuses of the spec, in order', () => {
    expect(BUSINESS_FOCUSES).toEqual([
      'Contabilidad y Finanzas',
      'Restaurantes',
      'Venta digital de productos',
    ]);
  });

  it('maps accounting and finance to AdmCloud', () => {
    expect(recommend('Contabilidad y Finanzas')).toMatchObject({
      nombre: 'AdmCloud',
      img: 'admcloud',
      ruta: '/producto/admcloud',
    });
  });

  it('maps restaurants to Restaurant.pe', () => {
    expect(recommend('Restaurantes')).toMatchObject({
      nombre: 'Restaurant.pe',
      img: 'restaurantpe',
      ruta: '/producto/restaurantpe',
    });
  });

  it('maps digital product sales to Tiendao', () => {
    expect(recommend('Venta digital de productos')).toMatchObject({
      nombre: 'Tiendao',
      img: 'tiendao',
      ruta: '/producto/tiendao',
    });
  });

  it('describes every recommendation', () => {
    for (const focus of BUSINESS_FOCUSES) expect(recommend(focus)?.descripcion.length).toBeGreaterThan(40);
  });

  it.each([
    '',
    'restaurantes',
    'Contabilidad',
    'Manufactura',
    ' Restaurantes',
    'toString',
    '__proto__',
    null,
    undefined,
    42,
  ])('gives no recommendation for %j', (choice) => {
    expect(recommend(choice)).toBeNull();
  });
});
