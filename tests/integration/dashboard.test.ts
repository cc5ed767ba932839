/**
 * The staff home's charts (issue 12) against both engines: known page views, incidents and history,
 * with empty days and weeks and rows on each side of Santo Domingo's midnight, give the series and the
 * medians worked out by hand; and a larger random history gives what an independent computation in
 * JavaScript (the zone's calendar from Intl) finds in the same rows.
 */
import { expect, it } from 'vitest';
import { formatDuration } from '../../src/domain/dashboard.ts';
import {
  countsPerState,
  INCIDENT_STATES,
  type HistoryEntry,
  type IncidentState,
} from '../../src/domain/incidents.ts';
import {
  dayStart,
  incidentsPerWeek,
  loadDashboardCharts,
  resolutionTimes,
  visitsPerDay,
} from '../../src/server/dashboard/index.ts';
import { migrateToLatest, migrator, type Db } from '../../src/server/db/index.ts';
import { countIncidentsByState } from '../../src/server/incidents/search.ts';
import { setIncidentState } from '../../src/server/incidents/state.ts';
import { describeEachEngine } from '../support/db.ts';
import { insertIncident, insertIncidents } from '../support/factories.ts';

// A Wednesday, 11:00 in Santo Domingo: the current week started on Monday 10 March.
const NOW = new Date('2025-03-12T15:00:00.000Z');

async function views(db: Db, rows: [string, string, number][]): Promise<void> {
  await db
    .insertInto('pageViews')
    .values(rows.map(([day, path, count]) => ({ day, path, count })))
    .execute();
}

/** An incident opened at `opened`, taken up an hour later and given each later state at its time. */
async function incident(db: Db, opened: string, ...later: [IncidentState, string][]): Promise<void> {
  const history: HistoryEntry[] = [{ estado: 'Registrado', fecha: opened, actor: null }];
  for (const [estado, fecha] of later) history.push({ estado, fecha, actor: 'soporte@example.com' });
  await insertIncident(db, { fecha: opened, estado: history.at(-1)!.estado }, history);
}

const SD_DAY = new Intl.DateTimeFormat('en-CA', {
  timeZone: 'America/Santo_Domingo',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});
/** Santo Domingo's calendar day of an instant, and the Monday of its week: computed apart from the module. */
const localDayOf = (iso: string) => SD_DAY.format(new Date(iso));
function mondayOf(iso: string): string {
  const day = new Date(`${localDayOf(iso)}T00:00:00Z`);
  day.setUTCDate(day.getUTCDate() - ((day.getUTCDay() + 6) % 7));
  return day.toISOString().slice(0, 10);
}
function median(values: number[]): number | null {
  if (!values.length) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

describeEachEngine('staff home charts', (database) => {
  it('counts the page views of each of the last 30 days, zero for a day without any', async () => {
    const { db } = database();
    await views(db, [
      ['2025-02-10', '/', 100], // the day before the 30
      ['2025-02-11', '/', 3],
      ['2025-02-11', '/blog', 4],
      ['2025-03-01', '/contacto', 5],
      ['2025-03-12', '/', 2],
      ['2025-03-13', '/', 9], // tomorrow (a clock ahead somewhere): not shown
    ]);
    const series = await visitsPerDay(db, NOW);
    expect(series).toHaveLength(30);
    expect(series[0]).toEqual({ day: '2025-02-11', views: 7 });
    expect(series.at(-1)).toEqual({ day: '2025-03-12', views: 2 });
    expect(series.find((item) => item.day === '2025-03-01')?.views).toBe(5);
    expect(series.filter((item) => item.views === 0)).toHaveLength(27);
    expect(series.reduce((sum, item) => sum + item.views, 0)).toBe(14);
    // Consecutive days, none missing.
    expect(new Set(series.map((item) => item.day)).size).toBe(30);
  });

  it('counts incidents opened and first resolved per Santo Domingo week, zero for a quiet week, and the medians', async () => {
    const { db } = database();
    await incident(db, '2024-11-01T10:00:00.000Z', ['Resuelto', '2024-12-01T10:00:00.000Z']); // before everything
    await incident(db, '2024-12-23T03:59:59.000Z'); // Sunday 22 Dec, 23:59 in Santo Domingo: before the 12 weeks
    await incident(db, '2024-12-23T04:00:00.000Z'); // Monday 23 Dec, 00:00: the first week
    await incident(
      db,
      '2025-01-01T00:00:00.000Z',
      ['En Proceso', '2025-01-02T00:00:00.000Z'],
      ['Resuelto', '2025-03-11T00:00:00.000Z'],
    );
    await incident(db, '2025-01-15T00:00:00.000Z', ['Resuelto', '2025-01-25T00:00:00.000Z']); // 10 d
    await incident(db, '2025-01-20T10:00:00.000Z', ['Resuelto', '2025-01-21T10:30:00.000Z']); // 1 d 30 min
    await incident(db, '2025-02-03T12:00:00.000Z', ['Resuelto', '2025-02-04T12:00:00.000Z']); // 1 d
    await incident(db, '2025-02-10T00:00:00.000Z', ['Resuelto', '2025-02-11T03:59:59.000Z']); // previous period's last second
    await incident(db, '2025-02-11T03:00:00.000Z', ['Resuelto', '2025-02-11T04:00:00.000Z']); // current period's first second: 1 h
    await incident(
      db,
      '2025-02-20T10:00:00.000Z',
      ['Resuelto', '2025-02-20T14:00:00.000Z'], // 4 h: its first resolution is the one counted
      ['En Proceso', '2025-02-21T10:00:00.000Z'],
      ['Resuelto', '2025-03-05T10:00:00.000Z'],
    );
    await incident(db, '2025-03-01T10:00:00.000Z', ['Resuelto', '2025-03-03T14:00:00.000Z']); // 2 d 4 h
    await incident(db, '2025-03-10T03:30:00.000Z'); // Sunday 9 March, 23:30 in Santo Domingo
    await incident(db, '2025-03-10T04:30:00.000Z'); // Monday 10 March, 00:30
    await incident(db, '2025-03-12T12:00:00.000Z', ['Resuelto', '2025-03-12T12:30:00.000Z']); // 30 min

    const weeks = await incidentsPerWeek(db, NOW);
    expect(weeks.map((week) => [week.week, week.opened, week.resolved])).toEqual([
      ['2024-12-23', 1, 0],
      ['2024-12-30', 1, 0],
      ['2025-01-06', 0, 0],
      ['2025-01-13', 1, 0],
      ['2025-01-20', 1, 2],
      ['2025-01-27', 0, 0],
      ['2025-02-03', 2, 1],
      ['2025-02-10', 1, 2],
      ['2025-02-17', 1, 1],
      ['2025-02-24', 1, 0],
      ['2025-03-03', 1, 1],
      ['2025-03-10', 2, 2],
    ]);

    const { current, previous } = await resolutionTimes(db, NOW);
    // Current: 30 min, 1 h, 4 h, 2 d 4 h, 69 d → the middle one.
    expect(current).toEqual({ from: '2025-02-11', to: '2025-03-12', medianSeconds: 4 * 3600, resolved: 5 });
    // Previous: 1 d, 1 d 30 min, 1 d 3 h 59 min 59 s, 10 d → the mean of the middle two.
    expect(previous).toEqual({
      from: '2025-01-12',
      to: '2025-02-10',
      medianSeconds: Math.round((88_200 + 100_799) / 2),
      resolved: 4,
    });
    expect(formatDuration(current.medianSeconds!)).toBe('4 h');
    expect(formatDuration(previous.medianSeconds!)).toBe('1 d 2 h');
  });

  it('shows zeros and no median on an empty database', async () => {
    const { db } = database();
    const charts = await loadDashboardCharts(db, NOW);
    expect(charts.visits).toHaveLength(30);
    expect(charts.visits.every((item) => item.views === 0)).toBe(true);
    expect(charts.weeks).toHaveLength(12);
    expect(charts.weeks.every((week) => week.opened === 0 && week.resolved === 0)).toBe(true);
    expect(charts.resolution.current).toMatchObject({ medianSeconds: null, resolved: 0 });
    expect(charts.resolution.previous).toMatchObject({ medianSeconds: null, resolved: 0 });
  });

  it('agrees with an independent count of a random history read back from the database', async () => {
    const { db } = database();
    let seed = 7;
    const random = () => ((seed = (seed * 16_807) % 2_147_483_647) - 1) / 2_147_483_646;
    const start = Date.parse('2024-11-01T00:00:00.000Z');
    const rows = Array.from({ length: 400 }, (_, index) => ({
      numeroIncidencia: `INC-20250101-${String(index).padStart(4, '0')}`,
      fecha: new Date(start + Math.floor(random() * (NOW.getTime() - start))).toISOString(),
    }));
    const histories = new Map<string, HistoryEntry[]>();
    for (const row of rows) {
      const history: HistoryEntry[] = [{ estado: 'Registrado', fecha: row.fecha, actor: null }];
      let at = Date.parse(row.fecha);
      for (const estado of ['En Proceso', 'Resuelto', 'En Proceso', 'Resuelto'] as const) {
        if (random() < 0.3) break;
        at += Math.floor(random() * 6 * 86_400_000);
        if (at > NOW.getTime()) break;
        history.push({ estado, fecha: new Date(at).toISOString(), actor: 'soporte@example.com' });
      }
      histories.set(row.numeroIncidencia, history);
    }
    await insertIncidents(
      db,
      rows.map((row) => ({ ...row, estado: histories.get(row.numeroIncidencia)!.at(-1)!.estado })),
      (row) => histories.get(row.numeroIncidencia)!,
    );
    const days = Array.from({ length: 60 }, (_, index) => {
      const day = new Date(Date.parse('2025-01-12T00:00:00Z') + index * 86_400_000)
        .toISOString()
        .slice(0, 10);
      return [day, '/', (index * 7) % 5] as [string, string, number];
    }).filter(([, , count]) => count > 0);
    await views(db, days);

    // What the database holds, read back plainly and counted here.
    const incidents = await db.selectFrom('incidents').select(['id', 'fecha']).execute();
    const events = await db
      .selectFrom('incidentEvents')
      .select(['incidentId', 'estado', 'fecha', 'id'])
      .orderBy('fecha')
      .orderBy('id')
      .execute();
    const opened = new Map(incidents.map((row) => [row.id, Date.parse(String(row.fecha))]));
    const firstResolution = new Map<number, number>();
    for (const event of events)
      if (event.estado === 'Resuelto' && !firstResolution.has(event.incidentId))
        firstResolution.set(event.incidentId, Date.parse(String(event.fecha)));
    const pageViews = await db.selectFrom('pageViews').selectAll().execute();

    const charts = await loadDashboardCharts(db, NOW);
    for (const { day, views: count } of charts.visits) {
      expect(count).toBe(
        pageViews.filter((row) => row.day === day).reduce((sum, row) => sum + Number(row.count), 0),
      );
    }
    for (const week of charts.weeks) {
      expect(week.opened).toBe(
        [...opened.values()].filter((at) => mondayOf(new Date(at).toISOString()) === week.week).length,
      );
      expect(week.resolved).toBe(
        [...firstResolution.values()].filter((at) => mondayOf(new Date(at).toISOString()) === week.week)
          .length,
      );
    }
    expect(charts.weeks.some((week) => week.resolved > 0)).toBe(true);
    const inPeriod = (from: string, to: string) =>
      [...firstResolution]
        .filter(
          ([, at]) =>
            localDayOf(new Date(at).toISOString()) >= from && localDayOf(new Date(at).toISOString()) <= to,
        )
        .map(([id, at]) => (at - opened.get(id)!) / 1000);
    const current = inPeriod('2025-02-11', '2025-03-12');
    const previous = inPeriod('2025-01-12', '2025-02-10');
    expect(current.length).toBeGreaterThan(10);
    expect(charts.resolution.current).toEqual({
      from: '2025-02-11',
      to: '2025-03-12',
      medianSeconds: Math.round(median(current)!),
      resolved: current.length,
    });
    expect(charts.resolution.previous).toEqual({
      from: '2025-01-12',
      to: '2025-02-10',
      medianSeconds: Math.round(median(previous)!),
      resolved: previous.length,
    });
  });

  it("keeps an incident's first resolution through the staff's state changes, as the charts count it", async () => {
    const { db } = database();
    const { id } = await insertIncident(db, { fecha: '2025-03-03T12:00:00.000Z' });
    const change = (estado: IncidentState, at: string) =>
      setIncidentState(db, { id, estado, actor: 'soporte@example.com' }, new Date(at));
    await change('En Proceso', '2025-03-03T13:00:00.000Z');
    expect((await incidentsPerWeek(db, NOW)).at(-2)).toEqual({ week: '2025-03-03', opened: 1, resolved: 0 });
    await change('Resuelto', '2025-03-04T12:00:00.000Z');
    await change('En Proceso', '2025-03-10T12:00:00.000Z');
    await change('Resuelto', '2025-03-11T12:00:00.000Z');
    const row = await db
      .selectFrom('incidents')
      .select('resolvedAt')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(new Date(String(row.resolvedAt)).toISOString()).toBe('2025-03-04T12:00:00.000Z');
    const weeks = await incidentsPerWeek(db, NOW);
    expect(weeks.at(-2)).toEqual({ week: '2025-03-03', opened: 1, resolved: 1 });
    expect(weeks.at(-1)).toEqual({ week: '2025-03-10', opened: 0, resolved: 0 });
    expect((await resolutionTimes(db, NOW)).current).toMatchObject({ medianSeconds: 86_400, resolved: 1 });
  });

  it('fills the first resolution of existing incidents from their history (migration 0019)', async () => {
    const { db } = database();
    await incident(
      db,
      '2025-03-01T10:00:00.000Z',
      ['Resuelto', '2025-03-02T10:00:00.000Z'],
      ['En Proceso', '2025-03-03T10:00:00.000Z'],
      ['Resuelto', '2025-03-04T10:00:00.000Z'],
    );
    await incident(db, '2025-03-05T10:00:00.000Z', ['En Proceso', '2025-03-05T11:00:00.000Z']);
    const down = await migrator(db).migrateTo('0013_incident_activity');
    expect(down.error).toBeUndefined();
    expect(down.results?.map((result) => result.migrationName)).toContain('0019_incident_resolved_at');
    await migrateToLatest(db);
    const rows = await db.selectFrom('incidents').select(['fecha', 'resolvedAt']).orderBy('fecha').execute();
    expect(
      rows.map((row) => (row.resolvedAt === null ? null : new Date(String(row.resolvedAt)).toISOString())),
    ).toEqual(['2025-03-02T10:00:00.000Z', null]);
    expect((await incidentsPerWeek(db, NOW)).at(-3)).toEqual({ week: '2025-02-24', opened: 1, resolved: 1 });
    expect((await incidentsPerWeek(db, NOW)).at(-2)).toEqual({ week: '2025-03-03', opened: 1, resolved: 0 });
  });

  it('keeps the counts per state in step with every insert, state change and delete (migration 0020)', async () => {
    const { db } = database();
    const grouped = async () =>
      countsPerState(
        await db
          .selectFrom('incidents')
          .select(['estado', (eb) => eb.fn.countAll<number>().as('total')])
          .groupBy('estado')
          .execute(),
      );
    // Existing incidents are counted by the migration itself.
    await insertIncidents(db, [{ estado: 'Resuelto' }, { estado: 'En Proceso' }, {}]);
    const down = await migrator(db).migrateTo('0019_incident_resolved_at');
    // Undone newest first: 0020 last (any later migration before it).
    expect(down.error).toBeUndefined();
    expect(down.results?.map((result) => result.migrationName).at(-1)).toBe('0020_incident_state_counts');
    await insertIncidents(db, [{}]);
    await migrateToLatest(db);
    expect(await countIncidentsByState(db)).toEqual({
      Registrado: 2,
      'En Proceso': 1,
      'Esperando al cliente': 0,
      Resuelto: 1,
    });

    // A bulk insert over two batches, as `npm run data` and the factories write them.
    const ids = await insertIncidents(
      db,
      Array.from({ length: 1_200 }, (_, index) => ({
        estado: INCIDENT_STATES[index % INCIDENT_STATES.length]!,
      })),
    );
    expect(await countIncidentsByState(db)).toEqual({
      Registrado: 302,
      'En Proceso': 301,
      'Esperando al cliente': 300,
      Resuelto: 301,
    });
    // The site's state change; then one statement moving many rows; then an update leaving the state alone.
    await setIncidentState(db, { id: ids[0]!, estado: 'Resuelto', actor: 'soporte@example.com' });
    await db
      .updateTable('incidents')
      .set({ estado: 'En Proceso' })
      .where('id', 'in', ids.slice(1, 301))
      .execute();
    await db
      .updateTable('incidents')
      .set({ problema: 'Editado' })
      .where('id', 'in', ids.slice(0, 600))
      .execute();
    expect(await countIncidentsByState(db)).toEqual(await grouped());
    expect(await countIncidentsByState(db)).toEqual({
      Registrado: 226,
      'En Proceso': 526,
      'Esperando al cliente': 225,
      Resuelto: 227,
    });
    // A transaction that fails moves nothing.
    await expect(
      db.transaction().execute(async (trx) => {
        await trx.updateTable('incidents').set({ estado: 'Resuelto' }).execute();
        throw new Error('rollback');
      }),
    ).rejects.toThrow('rollback');
    await db.deleteFrom('incidents').where('id', 'in', ids.slice(0, 450)).execute();
    expect(await countIncidentsByState(db)).toEqual(await grouped());
    expect(Object.values(await countIncidentsByState(db)).reduce((a, b) => a + b)).toBe(1_204 - 450);
  });

  it('finds where a Santo Domingo day starts in UTC', () => {
    expect(dayStart(new Date('2025-03-10T00:00:00Z'))).toBe('2025-03-10T04:00:00.000Z');
  });
});
