/**
 * The welcome mail to a new client's representative ('📧 Bienvenida'): formal ('usted') throughout,
 * its steps included (welcome-steps.ts).
 */
import { absoluteUrl, renderMail, type MailBrand } from './templates.ts';
import type { MailMessage } from './types.ts';
import { welcomeSteps } from './welcome-steps.ts';

/** What the welcome mail says about the new client (the spec's `enviarCorreoBienvenida` data). */
export interface WelcomeMailData {
  nombreRepresentante: string;
  email: string;
  razonSocial: string;
  tipoProyecto: string;
}

/** To a new client's representative, sent by staff from Clientes ('📧 Bienvenida'). */
export function welcomeMail(brand: MailBrand, data: WelcomeMailData): MailMessage {
  // The steps depend on the product the project names, if any (./welcome-steps.ts).
  const plan = welcomeSteps(data.tipoProyecto);
  return renderMail(
    brand,
    data.email,
    {
      subject: `Bienvenido a ${brand.companyName}, ${data.razonSocial}`,
      preheader: `Gracias por confiar en ${brand.companyName}: estos son los próximos pasos de su proyecto.`,
      heading: `¡Bienvenido, ${data.razonSocial}!`,
      intro: [
        `Hola, ${data.nombreRepresentante}:`,
        `Gracias por confiar en ${brand.companyName}. Es un gusto darle la bienvenida a ${data.razonSocial} como cliente; ya estamos preparando el arranque de su proyecto.`,
        ...(plan.intro ? [plan.intro] : []),
      ],
      rows: [
        ['Empresa', data.razonSocial],
        ['Proyecto', data.tipoProyecto],
        ['Representante', data.nombreRepresentante],
      ],
      quote: {
        label: 'Próximos pasos',
        text: plan.steps.map((step, index) => `${index + 1}. ${step}`).join('\n'),
      },
      ...(plan.link ? { action: { label: plan.link.label, href: absoluteUrl(brand, plan.link.path) } } : {}),
      outro: [
        `¿Preguntas? Responda a este correo, escríbanos a ${brand.email} o llámenos al ${brand.phone}.`,
        `Un cordial saludo,\nEl equipo de ${brand.companyName}`,
      ],
    },
    // "Responda a este correo" must reach someone, not the no-reply sender: the staff inbox.
    brand.staffInbox ?? brand.email,
  );
}
