import { describe, expect, it } from 'vitest';
import { welcomeMail } from '../../src/server/mail/welcome-mail.ts';
import { productOfProject, welcomeSteps } from '../../src/server/mail/welcome-steps.ts';

const brand = {
  companyName: 'Vértice Consultores',
  siteUrl: 'https://vertice.example',
  phone: '809-555-0142',
  email: 'info@vertice.example',
  whatsappNumber: '18095550142',
};
const data = { nombreRepresentante: 'Carmen', email: 'carmen@example.com', razonSocial: 'Farmacia SRL' };

describe('welcome mail steps', () => {
  it('finds the product a project type names, whatever its case, accents or punctuation', () => {
    expect(productOfProject('ERP AdmCloud')).toBe('admcloud');
    expect(productOfProject('Implementación ADM-CLOUD')).toBe('admcloud');
    expect(productOfProject('tiendao app')).toBe('tiendao');
    expect(productOfProject('TIENDAÓ')).toBe('tiendao');
    expect(productOfProject('Restaurant.pe')).toBe('restaurantpe');
    expect(productOfProject('restaurant PE en 2 sucursales')).toBe('restaurantpe');
    expect(productOfProject('Migración de Tiendao a AdmCloud')).toBe('tiendao');
    for (const other of ['Desarrollo de reportes', 'Restaurante', 'Tienda en línea', 'Entrenamiento', ''])
      expect(productOfProject(other)).toBeNull();
  });

  it('gives 3 to 4 steps per product with the product page, and the general text otherwise', () => {
    for (const [type, path] of [
      ['AdmCloud', '/producto/admcloud'],
      ['Restaurant.pe', '/producto/restaurantpe'],
      ['Tiendao', '/producto/tiendao'],
    ] as const) {
      const steps = welcomeSteps(type);
      expect(steps.steps.length).toBeGreaterThanOrEqual(3);
      expect(steps.steps.length).toBeLessThanOrEqual(4);
      expect(steps.link?.path).toBe(path);
      const mail = welcomeMail(brand, { ...data, tipoProyecto: type });
      expect(mail.text).toContain(`https://vertice.example${path}`);
      expect(mail.text).toContain(`1. ${steps.steps[0]}`);
    }
    const general = welcomeMail(brand, { ...data, tipoProyecto: 'Desarrollo de reportes' });
    expect(general.text).toContain(
      '1. Le contactaremos en los próximos días para acordar la reunión de arranque del proyecto.',
    );
    expect(general.text).not.toContain('/producto/');
    // It asks to reply: replies go to the staff inbox (else the company's address), never to no-reply.
    expect(
      welcomeMail({ ...brand, staffInbox: 'equipo@vertice.example' }, { ...data, tipoProyecto: 'AdmCloud' })
        .replyTo,
    ).toBe('equipo@vertice.example');
    expect(general.replyTo).toBe(brand.email);
  });
});
