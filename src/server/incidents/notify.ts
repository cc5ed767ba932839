/**
 * Telling the visitor that their incident changed state ('Notificar al cliente').
 *
 * Queued through the outbox, not sent now: the state change must not wait for, or fail with, the mail
 * server.
 */
import { companyDetails, escapeHtml, type CompanyDetails, type MailContent } from '../clients/welcome-mail.ts';
import { getConfig } from '../config.ts';
import { getDb } from '../db/index.ts';
import { enqueueMail, wakeMailWorkers } from '../mail/index.ts';
import { isEmailLike } from './index.ts';
import type { IncidentWithHistory } from './staff.ts';

export type NotifyResult = { queued: true } | { queued: false; reason: 'no-email' };

const EXPLANATION: Record<string, string> = {
  Registrado: 'Su incidencia está registrada y en cola para ser atendida por nuestro equipo de soporte.',
  'En Proceso': 'Un consultor ya está trabajando en su incidencia. Si necesitamos más datos, le contactaremos.',
  Resuelto: 'Damos su incidencia por resuelta. Si el problema persiste, responda a este correo y la reabrimos.',
};

export function stateChangeMail(incident: IncidentWithHistory, company: CompanyDetails): MailContent {
  const subject = `Incidencia ${incident.numeroIncidencia}: ${incident.estado}`;
  const explanation = EXPLANATION[incident.estado] ?? '';
  const greeting = incident.nombre.trim() ? `Hola, ${incident.nombre.trim()}:` : 'Hola:';
  const text = [
    greeting,
    '',
    `El estado de su incidencia ${incident.numeroIncidencia} cambió a «${incident.estado}».`,
    explanation,
    '',
    `Puede consultar su incidencia en ${company.siteUrl} o llamarnos al ${company.phone}.`,
    '',
    `El equipo de soporte de ${company.name}`,
  ].join('\n');
  const e = escapeHtml;
  const html = `<!doctype html><html lang="es-DO"><head><meta charset="utf-8"><title>${e(subject)}</title></head>
<body style="margin:0;background:#f8fafc;font-family:Segoe UI,Roboto,Helvetica,Arial,sans-serif;color:#0f172a">
<div style="max-width:560px;margin:24px auto;background:#fff;border:1px solid #e2e8f0;border-radius:16px;overflow:hidden">
<div style="background:#0b1f3a;color:#fff;padding:24px 28px"><p style="margin:0;font-size:13px;color:#ccfbf1">${e(company.name)} · Soporte</p>
<h1 style="margin:6px 0 0;font-size:20px">Incidencia ${e(incident.numeroIncidencia)}</h1></div>
<div style="padding:28px;font-size:15px;line-height:1.6"><p style="margin:0 0 12px">${e(greeting)}</p>
<p style="margin:0 0 12px">El estado de su incidencia cambió a <strong>${e(incident.estado)}</strong>.</p>
<p style="margin:0 0 12px">${e(explanation)}</p>
<p style="margin:0">¿Dudas? Responda a este correo o llámenos al ${e(company.phone)}.</p></div></div></body></html>`;
  return { to: incident.email, subject, text, html };
}

export async function notifyStateChange(incident: IncidentWithHistory): Promise<NotifyResult> {
  // A free-text e-mail that is no address would only fail at the mail server, for good.
  if (!isEmailLike(incident.email)) return { queued: false, reason: 'no-email' };
  await enqueueMail(getDb(), { kind: 'incident.state', ...stateChangeMail(incident, companyDetails(getConfig())) });
  wakeMailWorkers();
  return { queued: true };
}
