/**
 * What the server process does around serving requests: before it listens (migrations) and while it
 * runs (background workers). Used by `scripts/start.ts`; kept free of HTTP so it is tested directly.
 */
import { purgeUnusedBlobs } from './attachments/index.ts';
import { importMarkdownArticles } from './content/index.ts';
import { importAnnouncements, importClientLogos } from './content/index.ts';
import { getDbHandle, migrateToLatest } from './db/index.ts';
import { getLogger } from './log.ts';
import { writeFirstPassword } from './auth/index.ts';
import { ensureInitialStaff } from './auth/index.ts';
import { closePageViews } from './analytics/index.ts';
import { purgeOldEventsIfDue } from './audit/index.ts';
import { getConfig } from './config.ts';
import { overdueChecker } from './incidents/index.ts';
import { sendStaffDigestIfDue } from './incidents/index.ts';
import { startMailboxPoller } from './channels/index.ts';
import { inboundSettings } from './channels/index.ts';
import { purgeOldOriginalsIfDue } from './channels/index.ts';
import { startDeliveryWorker, whatsappNoticeSender, whatsappSettings } from './channels/index.ts';
import { getMailTransport, mailBrand, startMailWorker } from './mail/index.ts';

const HOUR_MS = 60 * 60 * 1000;
/** How often a server looks for targets of the business-hours clock that passed (issue 22). */
export const OVERDUE_CHECK_MS = 15_000;

/** A background task that can be asked to stop; `stop()` resolves once its current work is done. */
export interface Background {
  name: string;
  stop(): Promise<void>;
}

/** Applies pending migrations on the shared connection. */
export async function prepareDatabase(): Promise<void> {
  const handle = getDbHandle();
  const result = await migrateToLatest(handle.db);
  const applied =
    result.results?.filter((item) => item.status === 'Success').map((item) => item.migrationName) ?? [];
  getLogger().info({ database: handle.describe, applied }, 'database ready');
}

/**
 * Content kept in files before issue 23, imported into the database once (the blog's Markdown
 * articles: src/server/content/markdown-import.ts). Called by `npm start` after the migrations.
 */
export async function importInitialContent(): Promise<void> {
  const imported = await importMarkdownArticles(getDbHandle().db);
  if (imported !== null) getLogger().info({ articles: imported }, 'blog articles imported from Markdown');
  const announcements = await importAnnouncements(getDbHandle().db);
  if (announcements !== null) getLogger().info({ announcements }, 'announcements imported');
  const logos = await importClientLogos(getDbHandle().db);
  if (logos !== null) getLogger().info({ logos }, 'client logos imported');
}

/**
 * A fresh install gets one staff account so a newcomer can sign in; its password is shown once.
 * Called by `npm start` only (not by the other scripts that prepare the database).
 */
export async function ensureFirstStaffAccount(): Promise<void> {
  const created = await ensureInitialStaff();
  if (!created) return;
  // Never printed: the console of a service ends up in its journal. The file is readable by this user only.
  const file = getConfig().FIRST_PASSWORD_FILE;
  writeFirstPassword(file, created.email, created.password);
  console.log(
    `\nCuenta de personal creada: ${created.email}\nTu contraseña inicial está en ${file} (solo la puede leer este usuario).\n` +
      'Al iniciar sesión se pide cambiarla; el archivo se borra entonces.\n',
  );
}

/**
 * Starts the background work of a server process: the mail outbox worker, and the support mailbox's
 * poller when `INBOUND_IMAP_URL` is set. The mail transport is created here, so a bad mail setting
 * (e.g. EmailJS keys missing) stops the start instead of failing later.
 */
export async function startBackground(): Promise<Background[]> {
  const log = getLogger();
  const transport = getMailTransport();
  const db = getDbHandle().db;
  const config = getConfig();
  let lastBlobPurge = 0;
  // The business-hours clock's overdue mails (issue 22): every 15 s, in every process; each mail is made once.
  const checkOverdue = overdueChecker(
    db,
    () => ({ brand: mailBrand(config), staffInbox: config.STAFF_INBOX, staffEmails: config.ADMIN_EMAILS }),
    OVERDUE_CHECK_MS,
  );
  const worker = startMailWorker({
    db,
    transport,
    log,
    // Held staff notices (a flood of incidents) go out as one digest when it comes due; once an hour,
    // audit events older than AUDIT_RETENTION_DAYS and raw inbound mails older than 90 days are deleted.
    beforeRound: async () => {
      await sendStaffDigestIfDue(db, {
        brand: mailBrand(config),
        staffInbox: config.STAFF_INBOX,
        intervalMs: config.STAFF_DIGEST_INTERVAL_SECONDS * 1000,
      });
      const overdue = await checkOverdue().catch((error: unknown) => {
        log.error({ err: error }, 'overdue check failed');
        return 0;
      });
      if (overdue) log.info({ overdue }, 'overdue mails queued');
      // A failed purge is retried in an hour and never holds up the mail round.
      const purged = await purgeOldEventsIfDue(db, config.AUDIT_RETENTION_DAYS).catch((error: unknown) => {
        log.error({ err: error }, 'audit purge failed');
        return null;
      });
      if (purged)
        log.info({ purged, retentionDays: config.AUDIT_RETENTION_DAYS }, 'old audit events deleted');
      // Raw inbound mails ('Ver original') are kept 90 days; their record stays.
      const originals = await purgeOldOriginalsIfDue(db).catch((error: unknown) => {
        log.error({ err: error }, 'inbound originals purge failed');
        return null;
      });
      if (originals) log.info({ originals }, 'old inbound originals dropped');
      // Files kept for a refused form's next try that never came back (src/server/attachments/kept.ts).
      if (Date.now() - lastBlobPurge >= HOUR_MS) {
        lastBlobPurge = Date.now();
        const blobs = await purgeUnusedBlobs(db).catch((error: unknown) => {
          log.error({ err: error }, 'unused blobs purge failed');
          return 0;
        });
        if (blobs) log.info({ blobs }, 'unused attachment blobs deleted');
      }
    },
  });
  log.info({ transport: transport.kind }, 'mail worker started');
  // The support mailbox, when INBOUND_IMAP_URL is set: polled now, then every INBOUND_POLL_SECONDS.
  const inbound = config.INBOUND_IMAP_URL
    ? startMailboxPoller(db, {
        url: config.INBOUND_IMAP_URL,
        settings: inboundSettings(config),
        maxBytes: config.INBOUND_MAX_BYTES,
        intervalMs: config.INBOUND_POLL_SECONDS * 1000,
        log,
      })
    : null;
  if (inbound) log.info({ everySeconds: config.INBOUND_POLL_SECONDS }, 'inbound mailbox poller started');
  // The customer notices a channel sends itself (WhatsApp, when WHATSAPP_APP_SECRET turns it on): one
  // worker per process; the lease on each notice keeps two processes from sending it twice.
  const whatsapp = whatsappSettings(config);
  const delivery = whatsapp
    ? startDeliveryWorker({
        db,
        senders: [whatsappNoticeSender({ settings: whatsapp, brand: mailBrand(config) })],
        log,
      })
    : null;
  if (delivery) log.info({ channels: ['whatsapp'] }, 'delivery worker started');
  return [
    ...(delivery ? [{ name: delivery.name, stop: () => delivery.stop() }] : []),
    ...(inbound ? [inbound] : []),
    {
      // Views counted in memory are written before the process exits (and any beacon still being
      // answered is written as it comes).
      name: 'page-views',
      async stop() {
        const written = await closePageViews(db);
        if (written) log.info({ views: written }, 'page views flushed');
      },
    },
    {
      name: worker.name,
      async stop() {
        await worker.stop();
        transport.close?.();
      },
    },
  ];
}
