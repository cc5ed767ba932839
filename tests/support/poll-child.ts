/**
 * One round of the mailbox poller in a process of its own, for the crash and two-process tests
 * (tests/integration/inbound-imap.test.ts):
 *
 *   node tests/support/poll-child.ts DATABASE_URL IMAP_URL [DIE_AT]
 *
 * With DIE_AT = n > 0 the process kills itself (SIGKILL: no clean-up, no logout, no rollback) when the
 * round is about to flag its n-th mail, that is after the mail was stored and before it was moved. It
 * prints the round's result as JSON otherwise.
 */
import { ImapFlow } from 'imapflow';
import { openDatabase } from '../../src/server/db/index.ts';
import { pollMailbox } from '../../src/server/channels/mail/imap.ts';
import { testInboundSettings } from './inbound.ts';

const [databaseUrl, imapUrl, dieAt = '0'] = process.argv.slice(2);
if (!databaseUrl || !imapUrl) throw new Error('uso: poll-child.ts DATABASE_URL IMAP_URL [DIE_AT]');

let flagged = 0;
const flag = ImapFlow.prototype.messageFlagsAdd;
ImapFlow.prototype.messageFlagsAdd = function (this: ImapFlow, ...args: Parameters<typeof flag>) {
  flagged += 1;
  if (flagged === Number(dieAt)) process.kill(process.pid, 'SIGKILL');
  return flag.apply(this, args);
};

const { db } = openDatabase(databaseUrl);
try {
  const result = await pollMailbox(db, {
    url: imapUrl,
    settings: testInboundSettings(),
    maxBytes: 1024 * 1024,
  });
  process.stdout.write(`${JSON.stringify(result)}\n`);
} finally {
  await db.destroy();
}
