import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../engine.ts';

/**
 * The staff home's three counters (incidents per state) were three index-range counts: at 100,000
 * incidents, about 5 ms of SQLite and 13 ms of PostgreSQL per page view, most of the page's query time
 * (issue 12's target is the whole page in under 50 ms). They are now kept in `incident_state_counts`,
 * one row per state, by triggers on `incidents`: every insert, state change and delete, whoever makes
 * it (the site, `npm run data`, a hand-written statement), moves the counts in the same transaction,
 * so they can never disagree with the table. Existing rows are counted once, here.
 *
 * SQLite has row triggers only. PostgreSQL gets statement triggers with transition tables instead: a
 * bulk insert of thousands of incidents then updates each state's row once, not once per incident
 * (repeated updates of one row within a transaction get slower with each one).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('incident_state_counts')
    .addColumn('estado', 'text', (c) => c.primaryKey())
    .addColumn('total', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`insert into incident_state_counts (estado, total)
    select estado, count(*) from incidents group by estado`.execute(db);

  if (isPostgres(db)) {
    // Adds each state's net change (+1 per new row, −1 per old one) in one statement.
    await sql`create function incident_state_counts_apply() returns trigger language plpgsql as $$
      begin
        if tg_op = 'INSERT' then
          insert into incident_state_counts (estado, total)
            select estado, count(*) from new_rows group by estado
            on conflict (estado) do update set total = incident_state_counts.total + excluded.total;
        elsif tg_op = 'DELETE' then
          update incident_state_counts c set total = c.total - d.n
            from (select estado, count(*) as n from old_rows group by estado) d
            where c.estado = d.estado;
        else
          insert into incident_state_counts (estado, total)
            select estado, sum(n) from (
              select estado, 1 as n from new_rows
              union all
              select estado, -1 as n from old_rows
            ) changes group by estado having sum(n) <> 0
            on conflict (estado) do update set total = incident_state_counts.total + excluded.total;
        end if;
        return null;
      end $$`.execute(db);
    await sql`create trigger incident_state_counts_insert after insert on incidents
      referencing new table as new_rows for each statement execute function incident_state_counts_apply()`.execute(
      db,
    );
    await sql`create trigger incident_state_counts_update after update on incidents
      referencing old table as old_rows new table as new_rows for each statement execute function incident_state_counts_apply()`.execute(
      db,
    );
    await sql`create trigger incident_state_counts_delete after delete on incidents
      referencing old table as old_rows for each statement execute function incident_state_counts_apply()`.execute(
      db,
    );
    return;
  }
  await sql`create trigger incident_state_counts_insert after insert on incidents begin
      insert into incident_state_counts (estado, total) values (new.estado, 1)
        on conflict (estado) do update set total = total + 1;
    end`.execute(db);
  await sql`create trigger incident_state_counts_update after update of estado on incidents
    when old.estado is not new.estado begin
      update incident_state_counts set total = total - 1 where estado = old.estado;
      insert into incident_state_counts (estado, total) values (new.estado, 1)
        on conflict (estado) do update set total = total + 1;
    end`.execute(db);
  await sql`create trigger incident_state_counts_delete after delete on incidents begin
      update incident_state_counts set total = total - 1 where estado = old.estado;
    end`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const name of ['insert', 'update', 'delete'])
    await sql`drop trigger if exists ${sql.raw(`incident_state_counts_${name}`)}${sql.raw(isPostgres(db) ? ' on incidents' : '')}`.execute(
      db,
    );
  if (isPostgres(db)) await sql`drop function if exists incident_state_counts_apply()`.execute(db);
  await db.schema.dropTable('incident_state_counts').ifExists().execute();
}
