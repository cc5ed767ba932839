/**
 * The company details every mail template is rendered with in the tests: one brand, so a change to
 * `MailBrand` is made here once.
 */
import type { MailBrand } from '../../src/server/mail/templates.ts';

export const MAIL_BRAND: MailBrand = {
  companyName: 'Vértice Consultores',
  siteUrl: 'https://vertice.example',
  phone: '+1 809-555-0142',
  email: 'contacto@vertice.example',
  whatsappNumber: '18095550142',
};
