/**
 * The mailbox poller's rounds on PostgreSQL (the tests are in tests/support/imap-poller.ts; SQLite's
 * half runs from inbound-imap.test.ts).
 */
import { pollerSuite } from '../support/imap-poller.ts';

pollerSuite('postgres');
