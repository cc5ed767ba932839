/**
 * Issue 41, item 6: María answers the confirmation from each client our customers write from (Outlook,
 * Gmail, Apple Mail, GMX, Thunderbird, in Spanish, English and German); each answer, by the webhook and
 * by the mailbox (a private Dovecot), on both engines, is her text without the quoted history. Her own
 * lines that look like headers stay. The cut itself is tested case by case in tests/unit/quoted-history.test.ts.
 */
import { describe, expect, it } from 'vitest';
import type { Db } from '../../src/server/db/index.ts';
import { describeEachEngine } from '../support/db.ts';
import { dovecotProblem } from '../support/dovecot.ts';
import { openFormIncident } from '../support/inbound.ts';
import { throughMailbox, useWebhook } from '../support/inbound-channels.ts';
import { useDovecot } from '../support/imap-poller.ts';
import { clientReply, OWN_HEADER_LIKE_TEXT, OWN_TEXT, QUOTED_HISTORY } from '../support/client-mails.ts';

const at = new Date(Date.UTC(2026, 11, 7, 14));

/** María's incident and a reply to its confirmation from each client, then one with header-like lines of hers. */
async function replies(db: Db) {
  const incident = await openFormIncident(db, at);
  const raws = Object.values(QUOTED_HISTORY).map((client, index) =>
    clientReply(incident, `respuesta-${index}@cliente.example`, OWN_TEXT, client),
  );
  raws.push(clientReply(incident, 'propia@cliente.example', OWN_HEADER_LIKE_TEXT, null));
  return { incident, raws };
}

const answerBodies = async (db: Db, incidentId: number) =>
  (
    await db
      .selectFrom('incidentEntries')
      .select('body')
      .where('incidentId', '=', incidentId)
      .where('kind', '=', 'answer')
      .orderBy('id')
      .execute()
  ).map((row) => row.body);

const expected = [...Object.values(QUOTED_HISTORY).map(() => OWN_TEXT), OWN_HEADER_LIKE_TEXT];

describeEachEngine('quoted history of real clients (issue 41)', (database) => {
  const post = useWebhook();

  it('by the webhook: each answer is the text above its quoted history, whatever the client', async () => {
    const { db } = database();
    const { incident, raws } = await replies(db);
    expect(await post(db, raws)).toEqual(raws.map(() => ({ status: 202, resultado: 'answer' })));
    expect(await answerBodies(db, incident.id)).toEqual(expected);
  });

  describe.skipIf(dovecotProblem !== null)('by the mailbox', () => {
    useDovecot();

    it('each answer is the text above its quoted history, whatever the client', async () => {
      const { db } = database();
      const { incident, raws } = await replies(db);
      expect(await throughMailbox(db, raws, at)).toEqual({
        status: 'done',
        processed: raws.length,
        rejected: 0,
      });
      expect(await answerBodies(db, incident.id)).toEqual(expected);
    });
  });
});
