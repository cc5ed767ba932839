import { describe, expect, it } from 'vitest';
import { callableCode, withTimeout } from '../../src/components/admin/callable.ts';
import { localDay, normalizeViewPath } from '../../src/server/analytics/index.ts';
import { normalizeDominicanPhone, taxIdWarning } from '../../src/server/clients/index.ts';
import { formatStaffDateTime } from '../../src/domain/dates.ts';
import { looksLikeEmail } from '../../src/domain/email.ts';
import {
  countsPerState,
  INCIDENT_NUMBER_PATTERN,
  INCIDENT_STATES,
  incidentNumber,
  INITIAL_STATE,
  isIncidentState,
  utcDay,
} from '../../src/domain/incidents.ts';
import { csvCell } from '../../src/server/csv.ts';
import { historyText } from '../../src/server/incidents/history.ts';
import { incidentQueryString, parseIncidentQuery } from '../../src/server/incidents/query.ts';
import { MAIL_BRAND as brand } from '../support/mail-brand.ts';

describe('staff helpers', () => {
  it('neutralises formula cells and quotes every CSV cell', () => {
    expect(csvCell('=1+1')).toBe(`"'=1+1"`);
    for (const lead of ['+', '-', '@', '\t', '\r']) expect(csvCell(`${lead}x`)).toBe(`"'${lead}x"`);
    expect(csvCell('dice "hola", adiós')).toBe('"dice ""hola"", adiós"');
  });

  it('normalises Dominican phones and keeps anything else as typed', () => {
    expect(normalizeDominicanPhone('8095550142')).toBe('+1 809-555-0142');
    expect(normalizeDominicanPhone('(829) 555 0142')).toBe('+1 829-555-0142');
    expect(normalizeDominicanPhone('+1 849.555.0142')).toBe('+1 849-555-0142');
    expect(normalizeDominicanPhone('1-809-555-0142')).toBe('+1 809-555-0142');
    expect(normalizeDominicanPhone('305 555 0142')).toBe('305 555 0142');
    expect(normalizeDominicanPhone('ext. 809 5550142')).toBe('ext. 809 5550142');
  });

  it('warns (never refuses) on RNC and cédula check digits', () => {
    expect(taxIdWarning('1-01-85004-3')).toBeNull();
    expect(taxIdWarning('101850042')).toMatch(/RNC/);
    expect(taxIdWarning('001-1391820-5')).toBeNull();
    expect(taxIdWarning('00113918204')).toMatch(/cédula/);
    expect(taxIdWarning('123')).toMatch(/9 dígitos/);
  });

  it('counts only our public paths', () => {
    expect(normalizeViewPath('/blog/mejor-erp-2025?utm=x#top')).toBe('/blog/mejor-erp-2025');
    expect(normalizeViewPath('/productos/')).toBe('/productos');
    expect(normalizeViewPath('/')).toBe('/');
    for (const bad of [
      '/admin',
      '/admin/clientes',
      '/admin-login',
      '/api/pv',
      'https://x.com/',
      '/<script>',
      `/${'a'.repeat(200)}`,
    ]) {
      expect(normalizeViewPath(bad)).toBeNull();
    }
    expect(localDay(new Date('2025-01-02T03:00:00Z'))).toBe('2025-01-01');
  });

  it('reads and writes the incident filters of the URL', () => {
    const { filters, page } = parseIncidentQuery(
      new URLSearchParams('nombre=%20P%C3%A9rez%20&estado=Cerrado&pagina=-3'),
    );
    expect(filters).toEqual({ numero: undefined, nombre: 'Pérez', rnc: undefined, estado: undefined });
    expect(page).toBe(1);
    expect(incidentQueryString({ nombre: 'Pérez', estado: 'En Proceso' }, 2)).toBe(
      '?nombre=P%C3%A9rez&estado=En+Proceso&pagina=2',
    );
    expect(parseIncidentQuery(new URLSearchParams('origen=Correo')).filters.origen).toBe('Correo');
    expect(parseIncidentQuery(new URLSearchParams('origen=Fax')).filters.origen).toBeUndefined();
    // Any case, with or without accents (issue 39); a value that is no option is named, an empty one unset.
    const typed = parseIncidentQuery(
      new URLSearchParams('origen=correo&estado=en%20proceso&prioridad=ALTA&asignacion=Mias&plazo=HOY'),
    );
    expect(typed.filters).toMatchObject({
      origen: 'Correo',
      estado: 'En Proceso',
      prioridad: 'Alta',
      asignacion: 'mias',
      plazo: 'hoy',
    });
    expect(typed.invalid).toEqual([]);
    expect(parseIncidentQuery(new URLSearchParams('estado=resuelto')).filters.estado).toBe('Resuelto');
    expect(parseIncidentQuery(new URLSearchParams('origen=Fax&estado=Cerrado&prioridad=')).invalid).toEqual([
      'estado',
      'origen',
    ]);
    expect(incidentQueryString({ estado: 'Registrado', origen: 'Correo' })).toBe(
      '?estado=Registrado&origen=Correo',
    );
  });

  it('maps statuses to the callable error codes and gives up after the time-out', async () => {
    expect([400, 401, 403, 404, 500, 0, 418].map(callableCode)).toEqual([
      'invalid-argument',
      'unauthenticated',
      'permission-denied',
      'not-found',
      'internal',
      'internal',
      'unknown',
    ]);
    await expect(withTimeout(new Promise(() => {}), 20)).rejects.toMatchObject({ name: 'CallTimeoutError' });
    expect(await withTimeout(Promise.resolve(7), 20)).toBe(7);
  });
});

describe('incident vocabulary', () => {
  it('starts incidents in the first state and counts every state, zero when none', () => {
    expect(INITIAL_STATE).toBe(INCIDENT_STATES[0]);
    expect(isIncidentState('En Proceso')).toBe(true);
    expect(isIncidentState('en proceso')).toBe(false);
    const zero = Object.fromEntries(INCIDENT_STATES.map((state) => [state, 0]));
    expect(countsPerState([])).toEqual(zero);
    expect(
      countsPerState([
        { estado: 'Resuelto', total: '3' },
        { estado: 'Otro', total: 9 },
      ]),
    ).toEqual({ ...zero, Resuelto: 3 });
  });

  it('numbers incidents INC-{UTC day}-{suffix}, the form the pattern accepts', () => {
    const number = incidentNumber(utcDay(new Date('2025-03-04T03:30:00.000Z')), 4821);
    expect(number).toBe('INC-20250304-4821');
    expect(INCIDENT_NUMBER_PATTERN.test(number)).toBe(true);
    expect(INCIDENT_NUMBER_PATTERN.test('INC-2025034-4821')).toBe(false);
  });

  it('sees an e-mail address only in something@something.tld without spaces', () => {
    expect(looksLikeEmail(' ana@cliente.example ')).toBe(true);
    expect(looksLikeEmail('ana@cliente')).toBe(false);
    expect(looksLikeEmail('no es un correo')).toBe(false);
  });

  it('writes a history as one cell: date, state and who, oldest first', () => {
    const historial = [
      { estado: 'Registrado' as const, fecha: '2025-01-01T10:00:00.000Z', actor: null },
      { estado: 'Resuelto' as const, fecha: '2025-02-01T12:00:00.000Z', actor: 'soporte@vertice.example' },
    ];
    expect(historyText(historial)).toBe(
      '2025-01-01T10:00:00.000Z Registrado | 2025-02-01T12:00:00.000Z Resuelto (soporte@vertice.example)',
    );
    expect(historyText(historial, formatStaffDateTime)).toBe(
      '01/01/2025 06:00 Registrado | 01/02/2025 08:00 Resuelto (soporte@vertice.example)',
    );
  });
});

describe('welcome mail content', async () => {
  const { welcomeMail } = await import('../../src/server/mail/welcome-mail.ts');
  it('greets the representative in Spanish through the common template and escapes every value in the HTML', () => {
    const mail = welcomeMail(brand, {
      nombreRepresentante: 'Carmen <b>',
      email: 'c@x.do',
      razonSocial: '<img src=x onerror=alert(1)>',
      tipoProyecto: 'Tiendao "Plus" & más',
    });
    expect(mail.to).toBe('c@x.do');
    expect(mail.subject).toBe('Bienvenido a Vértice Consultores, <img src=x onerror=alert(1)>');
    expect(mail.text).toContain('Hola, Carmen <b>:');
    expect(mail.text).toContain('Proyecto: Tiendao "Plus" & más');
    expect(mail.html).not.toContain('<img');
    expect(mail.html).not.toContain('<b>');
    expect(mail.html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(mail.html).toContain('Tiendao &quot;Plus&quot; &amp; más');
    // The common frame of every mail (renderMail): brand header and the company footer.
    expect(mail.html).toContain('<html lang="es">');
    expect(mail.html).toContain('mailto:contacto@vertice.example');
    expect(mail.html).toContain('Próximos pasos');
  });
});
