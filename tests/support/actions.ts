/**
 * Public actions called over HTTP as a browser without JavaScript would (form-encoded POST to
 * `/_actions/NAME`), for load and fault tests. Never throws: a refused connection is status 0.
 * The form carries a valid signed start time (tests/support/form-stamp.ts) unless it sets `startedAt`.
 */
import { sql } from 'kysely';
import { expect } from 'vitest';
import type { Db } from '../../src/server/db/index.ts';
import { formStamp } from './form-stamp.ts';

export interface ActionAnswer {
  status: number;
  /** The incident number of a successful `incidents.create`. */
  numero?: string;
  /** The Spanish message of a refusal (an ActionError's `message`). */
  message?: string;
  error?: string;
}

export async function postAction(
  baseUrl: string,
  name: string,
  form: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<ActionAnswer> {
  try {
    const response = await fetch(`${baseUrl}/_actions/${name}`, {
      method: 'POST',
      headers: { origin: baseUrl, ...headers },
      body: new URLSearchParams({ startedAt: formStamp(), ...form }),
      signal: AbortSignal.timeout(20_000),
    });
    const text = await response.text();
    const answer: ActionAnswer = { status: response.status };
    if (response.ok) answer.numero = /INC-\d{8}-\d{4}/.exec(text)?.[0];
    else {
      try {
        answer.message = (JSON.parse(text) as { message?: string }).message;
      } catch {
        answer.message = text;
      }
    }
    return answer;
  } catch (error) {
    return {
      status: 0,
      error: error instanceof Error ? `${error.message} ${String(error.cause ?? '')}` : String(error),
    };
  }
}

/** A support incident as the public form sends it; `tag` makes its problem text unique. */
export function submitIncident(
  baseUrl: string,
  tag: string,
  headers: Record<string, string> = {},
): Promise<ActionAnswer> {
  return postAction(
    baseUrl,
    'incidents.create',
    {
      problema: `Prueba de fallos ${tag}`,
      nombre: 'Cliente de prueba',
      telefono: '809-555-0100',
      email: `cliente+${tag}@example.com`,
      rnc: '101850043',
    },
    headers,
  );
}

/**
 * Every acknowledged incident is stored with its number, its problem and one history entry; and
 * nothing is half-written: each stored incident has exactly one history entry, its visitor confirmation
 * in the outbox, and the staff told of it once: by its own notice, in a digest, or held for the next
 * digest (a burst of incidents).
 */
export async function expectIncidentsWhole(
  db: Db,
  acknowledged: Array<{ numero: string; tag: string }>,
): Promise<void> {
  for (const { numero, tag } of acknowledged) {
    const row = await db
      .selectFrom('incidents')
      .select(['id', 'problema'])
      .where('numeroIncidencia', '=', numero)
      .executeTakeFirst();
    expect(row, `${numero} acknowledged but not stored`).toBeDefined();
    expect(row!.problema).toBe(`Prueba de fallos ${tag}`);
  }
  const count = async (query: string) =>
    Number((await sql<{ n: number }>`${sql.raw(query)}`.execute(db)).rows[0]!.n);
  const incidents = await count('select count(*) as n from incidents');
  expect(await count('select count(*) as n from incident_events')).toBe(incidents);
  expect(
    await count(
      'select count(*) as n from incidents i where (select count(*) from incident_events e where e.incident_id = i.id) <> 1',
    ),
  ).toBe(0);
  expect(await count("select count(*) as n from mail_outbox where kind = 'incident.confirmation'")).toBe(
    incidents,
  );
  const notices = await count("select count(*) as n from mail_outbox where kind = 'incident.staff-notice'");
  const held = await count('select count(*) as n from incidents where staff_notice_pending = true');
  const digests = await db
    .selectFrom('mailOutbox')
    .select('subject')
    .where('kind', '=', 'incident.staff-digest')
    .execute();
  const digested = digests.reduce((sum, digest) => sum + Number.parseInt(digest.subject, 10), 0);
  expect(notices + held + digested).toBe(incidents);
  expect(incidents).toBeGreaterThanOrEqual(acknowledged.length);
}
