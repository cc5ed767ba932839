import type { Kysely } from 'kysely';
import { idColumn, timestampType } from './helpers.ts';

/** The site's own tables. Written once for both engines; see helpers.ts for the two differences. */
export async function up(db: Kysely<any>): Promise<void> {
  const ts = timestampType(db);

  await idColumn(db, db.schema.createTable('incidents'))
    .addColumn('numero_incidencia', 'text', (c) => c.notNull().unique())
    .addColumn('problema', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('nombre', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('telefono', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('email', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('rnc', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('estado', 'text', (c) => c.notNull())
    .addColumn('fecha', ts, (c) => c.notNull())
    // Lower-case, accent-free copies for the staff filters (see src/server/text.ts).
    .addColumn('nombre_norm', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('rnc_norm', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema
    .createIndex('incidents_fecha_idx')
    .on('incidents')
    .columns(['fecha desc', 'id desc'])
    .execute();
  await db.schema
    .createIndex('incidents_estado_fecha_idx')
    .on('incidents')
    .columns(['estado', 'fecha desc'])
    .execute();

  await idColumn(db, db.schema.createTable('incident_events'))
    .addColumn('incident_id', 'integer', (c) => c.notNull().references('incidents.id').onDelete('cascade'))
    .addColumn('estado', 'text', (c) => c.notNull())
    .addColumn('fecha', ts, (c) => c.notNull())
    .addColumn('actor', 'text')
    .execute();
  await db.schema
    .createIndex('incident_events_incident_idx')
    .on('incident_events')
    .columns(['incident_id', 'fecha'])
    .execute();

  await idColumn(db, db.schema.createTable('clients'))
    .addColumn('razon_social', 'text', (c) => c.notNull())
    .addColumn('nombre_representante', 'text', (c) => c.notNull())
    .addColumn('telefono', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('rnc', 'text', (c) => c.notNull())
    .addColumn('tipo_proyecto', 'text', (c) => c.notNull())
    .addColumn('estado_proyecto', 'text', (c) => c.notNull().defaultTo('pendiente'))
    .addColumn('fecha_registro', ts, (c) => c.notNull())
    .addColumn('correo_bienvenida_enviado', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('razon_social_norm', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('email_norm', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('rnc_norm', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema.createIndex('clients_fecha_registro_idx').on('clients').column('fecha_registro').execute();

  await idColumn(db, db.schema.createTable('contact_messages'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    .execute();

  await idColumn(db, db.schema.createTable('mail_outbox'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('to_address', 'text', (c) => c.notNull())
    .addColumn('reply_to', 'text')
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('text_body', 'text', (c) => c.notNull())
    .addColumn('html_body', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('pending'))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', ts, (c) => c.notNull())
    .addColumn('locked_until', ts)
    .addColumn('last_error', 'text')
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('sent_at', ts)
    .execute();
  await db.schema
    .createIndex('mail_outbox_due_idx')
    .on('mail_outbox')
    .columns(['status', 'next_attempt_at'])
    .execute();

  await db.schema
    .createTable('page_views')
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('page_views_pk', ['day', 'path'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'page_views',
    'mail_outbox',
    'contact_messages',
    'clients',
    'incident_events',
    'incidents',
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
