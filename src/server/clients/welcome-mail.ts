/**
 * The welcome e-mail's content (Spanish, text + HTML). Pure: the mail module sends it. Every value
 * is escaped in the HTML, so a client named `<img src=x onerror=…>` arrives as text.
 */
import type { Config } from '../config.ts';
import { escapeHtml } from '../mail/templates.ts';
import type { WelcomeMailData } from './welcome.ts';

export interface MailContent {
  to: string;
  subject: string;
  text: string;
  html: string;
}

export { escapeHtml };

/** The company block of the staff mails, from the settings. */
export function companyDetails(config: Config): CompanyDetails {
  return { name: config.COMPANY_NAME, phone: config.COMPANY_PHONE, email: config.COMPANY_EMAIL, siteUrl: config.SITE_URL };
}

export interface CompanyDetails {
  name: string;
  phone: string;
  email: string;
  siteUrl: string;
}

export function welcomeMail(data: WelcomeMailData, company: CompanyDetails): MailContent {
  const subject = `Bienvenido a ${company.name}, ${data.razonSocial}`;
  const steps = [
    'Le contactaremos en los próximos días para acordar la reunión de arranque del proyecto.',
    'En esa reunión definimos juntos el alcance, el calendario y las personas clave de su equipo.',
    'Durante la implementación tendrá un consultor asignado y soporte en español, aquí en República Dominicana.',
  ];
  const text = [
    `Hola, ${data.nombreRepresentante}:`,
    '',
    `Gracias por confiar en ${company.name}. Es un gusto darle la bienvenida a ${data.razonSocial} como cliente.`,
    `Hemos registrado su proyecto de ${data.tipoProyecto}. Próximos pasos:`,
    '',
    ...steps.map((step, index) => `${index + 1}. ${step}`),
    '',
    `Si tiene cualquier pregunta, responda a este correo o llámenos al ${company.phone}.`,
    '',
    'Un cordial saludo,',
    `El equipo de ${company.name}`,
    company.siteUrl,
  ].join('\n');
  const e = escapeHtml;
  const html = `<!doctype html>
<html lang="es-DO"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${e(subject)}</title></head>
<body style="margin:0;padding:0;background:#f8fafc;font-family:Segoe UI,Roboto,Helvetica,Arial,sans-serif;color:#0f172a">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f8fafc;padding:24px 0"><tr><td align="center">
<table role="presentation" width="600" cellpadding="0" cellspacing="0" style="max-width:600px;width:100%;background:#ffffff;border-radius:16px;overflow:hidden;border:1px solid #e2e8f0">
<tr><td style="background:#0b1f3a;padding:28px 32px;color:#ffffff">
<p style="margin:0;font-size:13px;letter-spacing:.08em;text-transform:uppercase;color:#ccfbf1">${e(company.name)}</p>
<h1 style="margin:8px 0 0;font-size:24px;line-height:1.3">¡Bienvenido, ${e(data.razonSocial)}!</h1>
</td></tr>
<tr><td style="padding:32px">
<p style="margin:0 0 16px;font-size:16px;line-height:1.6">Hola, ${e(data.nombreRepresentante)}:</p>
<p style="margin:0 0 16px;font-size:16px;line-height:1.6">Gracias por confiar en ${e(company.name)}. Hemos registrado su proyecto de <strong>${e(data.tipoProyecto)}</strong> y ya estamos preparando el arranque.</p>
<p style="margin:24px 0 8px;font-size:14px;font-weight:600;color:#0a7a73;text-transform:uppercase;letter-spacing:.06em">Próximos pasos</p>
<ol style="margin:0 0 24px;padding-left:20px;font-size:15px;line-height:1.7">${steps.map((step) => `<li>${e(step)}</li>`).join('')}</ol>
<p style="margin:0;font-size:15px;line-height:1.6">¿Preguntas? Responda a este correo, escríbanos a <a href="mailto:${e(company.email)}" style="color:#1a4280">${e(company.email)}</a> o llámenos al ${e(company.phone)}.</p>
</td></tr>
<tr><td style="padding:20px 32px;border-top:1px solid #e2e8f0;font-size:13px;color:#475569">El equipo de ${e(company.name)} · <a href="${e(company.siteUrl)}" style="color:#1a4280">${e(company.siteUrl.replace(/^https?:\/\//, ''))}</a></td></tr>
</table></td></tr></table></body></html>`;
  return { to: data.email, subject, text, html };
}
