/**
 * The mailbox poller's rounds on SQLite (the tests are in tests/support/imap-poller.ts; PostgreSQL's
 * half runs from inbound-imap-postgres.test.ts, the processes' tests from inbound-imap-processes.test.ts).
 */
import { pollerSuite } from '../support/imap-poller.ts';

pollerSuite('sqlite');
