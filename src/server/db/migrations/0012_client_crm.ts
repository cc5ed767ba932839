import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../engine.ts';
import { idColumn, timestampType } from './helpers.ts';

/**
 * Clients as a small CRM (issue 12): a `version` for optimistic concurrency on edits, the project
 * state constrained to its four values (any other value stored so far becomes 'pendiente'), an
 * `archived_at` (archiving hides a client from the default list; nothing is deleted), and the
 * client's timeline: one row per creation, edited field, state change, welcome mail, note, archive
 * and restore, inserted and never updated.
 */
const STATES = sql.raw(`('pendiente', 'en curso', 'completado', 'pausado')`);
const KINDS = sql.raw(`('created', 'edited', 'state', 'welcome', 'note', 'archived', 'restored')`);

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('clients')
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await db.schema.alterTable('clients').addColumn('archived_at', timestampType(db)).execute();

  // Today every client is 'pendiente'; a value written another way is folded onto the four states.
  await sql`update clients set estado_proyecto = lower(trim(estado_proyecto))`.execute(db);
  await sql`update clients set estado_proyecto = 'pendiente' where estado_proyecto not in ${STATES}`.execute(
    db,
  );
  if (isPostgres(db)) {
    await sql`alter table clients add constraint clients_estado_proyecto_check check (estado_proyecto in ${STATES})`.execute(
      db,
    );
  } else {
    // SQLite cannot add a CHECK to an existing table: the same rule as triggers.
    for (const event of ['insert', 'update of estado_proyecto']) {
      const name = event === 'insert' ? 'clients_estado_proyecto_insert' : 'clients_estado_proyecto_update';
      await sql`create trigger ${sql.raw(name)} before ${sql.raw(event)} on clients
        when new.estado_proyecto not in ${STATES}
        begin select raise(abort, 'CHECK constraint failed: estado_proyecto'); end`.execute(db);
    }
  }
  await db.schema
    .createIndex('clients_archived_estado_fecha_idx')
    .on('clients')
    .columns(['archived_at', 'estado_proyecto', 'fecha_registro desc'])
    .execute();

  await idColumn(db, db.schema.createTable('client_events'))
    .addColumn('client_id', 'integer', (c) => c.notNull().references('clients.id'))
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ${KINDS}`))
    .addColumn('actor_id', 'text')
    .addColumn('actor_email', 'text')
    .addColumn('detail', 'text')
    .addColumn('created_at', timestampType(db), (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('client_events_client_idx')
    .on('client_events')
    .columns(['client_id', 'created_at'])
    .execute();

  // The clients added before this migration get their creation entry, dated as registered.
  await sql`insert into client_events (client_id, kind, created_at) select id, 'created', fecha_registro from clients`.execute(
    db,
  );
  await sql`insert into client_events (client_id, kind, created_at) select id, 'welcome', fecha_registro from clients where correo_bienvenida_enviado = ${isPostgres(db) ? sql`true` : sql`1`}`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('client_events').ifExists().execute();
  await db.schema.dropIndex('clients_archived_estado_fecha_idx').ifExists().execute();
  if (isPostgres(db)) {
    await sql`alter table clients drop constraint if exists clients_estado_proyecto_check`.execute(db);
  } else {
    await sql`drop trigger if exists clients_estado_proyecto_insert`.execute(db);
    await sql`drop trigger if exists clients_estado_proyecto_update`.execute(db);
  }
  await db.schema.alterTable('clients').dropColumn('archived_at').execute();
  await db.schema.alterTable('clients').dropColumn('version').execute();
}
