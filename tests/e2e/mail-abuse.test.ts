/**
 * The mail relay closed (issue 13, hole 3), read at a real SMTP peer: a visitor's confirmation carries
 * nothing the visitor typed, one address gets at most 3 a day, and a burst of incidents reaches the
 * staff inbox as a few notices and digests that together name every incident.
 */
import { describe, expect, it } from 'vitest';
import type { ParsedMail } from 'mailparser';
import { formStamp } from '../support/form-stamp.ts';
import { postForm } from '../support/http.ts';
import { useSite } from '../support/site.ts';
import { NOTICES_PER_HOUR } from '../../src/server/incidents/notices.ts';

const STAFF_INBOX = 'bandeja@vertice.test';
const NUMBER = /INC-\d{8}-\d{4}/;

const { server, smtp } = useSite({
  smtp: true,
  browser: false,
  // No per-network limit here (every request comes from 127.0.0.1), and a digest every 3 s instead of 15 min.
  env: { STAFF_INBOX, FORM_RATE_LIMIT: '0', STAFF_DIGEST_INTERVAL_SECONDS: '3' },
});

async function openIncident(fields: Record<string, string>): Promise<string> {
  const response = await postForm(server.url, '/_actions/incidents.create', {
    ...fields,
    startedAt: formStamp(),
  });
  expect(response.status, response.body).toBe(200);
  return NUMBER.exec(response.body)![0];
}

const to = (mail: ParsedMail) => (mail.to && 'text' in mail.to ? mail.to.text : '');

describe('mail to visitors and to the staff inbox', () => {
  it('confirms to a visitor only what the site wrote, at most 3 times a day per address', async () => {
    const typed = {
      nombre: 'Oferta <b>GRATIS</b> de Juan',
      problema: 'Gane dinero hoy en http://estafa.example',
    };
    const numbers: string[] = [];
    for (let index = 0; index < 4; index += 1)
      numbers.push(await openIncident({ ...typed, email: 'victima@externo.test' }));
    // The fourth incident is stored and announced to the staff all the same.
    await smtp.waitFor((mail) => to(mail) === STAFF_INBOX && (mail.text ?? '').includes(numbers[3]!));
    const confirmations = smtp.messages.filter((mail) => to(mail) === 'victima@externo.test');
    expect(confirmations.map((mail) => mail.subject)).toEqual(
      numbers.slice(0, 3).map((numero) => `Incidencia ${numero} registrada`),
    );
    for (const mail of confirmations) {
      for (const text of [mail.text ?? '', mail.html || '', mail.subject ?? '']) {
        expect(text).not.toContain('GRATIS');
        expect(text).not.toContain('Juan');
        expect(text).not.toContain('estafa.example');
      }
    }
    expect(server.output()).toMatch(/"event":"mail\.skipped".*"reason":"address-cap"/);
  });

  it(`turns a burst of 25 incidents into at most ${NOTICES_PER_HOUR + 4} inbox mails that name every incident`, async () => {
    const numbers: string[] = [];
    for (let batch = 0; batch < 5; batch += 1) {
      numbers.push(
        ...(await Promise.all(
          Array.from({ length: 5 }, (_, index) =>
            openIncident({ nombre: `Cliente ${batch}-${index}`, problema: `Problema ${batch}-${index}` }),
          ),
        )),
      );
    }
    const inbox = () => smtp.messages.filter((mail) => to(mail) === STAFF_INBOX);
    await expect
      .poll(
        () => numbers.filter((numero) => inbox().some((mail) => (mail.text ?? '').includes(numero))).length,
        { timeout: 30_000 },
      )
      .toBe(25);
    // At most NOTICES_PER_HOUR notices an hour, then a digest every few seconds here (15 minutes by default).
    expect(inbox().length).toBeLessThanOrEqual(NOTICES_PER_HOUR + 4);
    const digests = inbox().filter((mail) => mail.subject?.endsWith('(resumen)'));
    expect(digests.length).toBeGreaterThan(0);
    for (const numero of numbers)
      expect(
        inbox().filter((mail) => (mail.text ?? '').includes(numero)),
        numero,
      ).toHaveLength(1);
  });
});
