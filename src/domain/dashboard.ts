/**
 * The staff home's charts (issue 12): the series the server computes (src/server/dashboard) and the
 * chart components draw (src/components/admin/charts). Plain TypeScript, safe anywhere.
 */

/** Days of the 'Visitas de los últimos 30 días' chart, today included. */
export const VISIT_DAYS = 30;
/** Weeks of the 'Incidencias por semana' chart, the current one included (weeks start on Monday). */
export const INCIDENT_WEEKS = 12;
/** Length of each period of 'Tiempo de resolución' (the current one ends today, Santo Domingo time). */
export const RESOLUTION_PERIOD_DAYS = 30;

/** Views of the public pages on one calendar day in Santo Domingo (`yyyy-mm-dd`); 0 when none. */
export interface DayVisits {
  day: string;
  views: number;
}

/**
 * One week (Monday `yyyy-mm-dd`, Santo Domingo): the incidents opened in it, and the incidents that
 * reached 'Resuelto' for the first time in it.
 */
export interface WeekIncidents {
  week: string;
  opened: number;
  resolved: number;
}

/**
 * The median time from 'Registrado' (the incident's creation) to its first 'Resuelto', over the
 * incidents first resolved in the period; null when none was.
 */
export interface ResolutionPeriod {
  /** First and last calendar day of the period (`yyyy-mm-dd`, Santo Domingo), both included. */
  from: string;
  to: string;
  medianSeconds: number | null;
  /** How many incidents the median is taken over. */
  resolved: number;
}

export interface DashboardCharts {
  visits: DayVisits[];
  weeks: WeekIncidents[];
  resolution: { current: ResolutionPeriod; previous: ResolutionPeriod };
}

/**
 * When a history first reaches 'Resuelto' (ISO 8601 UTC), or null: the incident's `resolvedAt`, which
 * the charts count and measure (a reopened incident resolved again keeps its first resolution).
 */
export function firstResolvedAt(history: ReadonlyArray<{ estado: string; fecha: string }>): string | null {
  let first: string | null = null;
  for (const entry of history)
    if (entry.estado === 'Resuelto' && (first === null || entry.fecha < first)) first = entry.fecha;
  return first;
}

/**
 * A duration as the staff read it at a glance: the two largest units, `1 d 4 h`, `3 h 20 min`,
 * `45 min`; under a minute, `menos de 1 min`.
 */
export function formatDuration(seconds: number): string {
  const minutes = Math.floor(seconds / 60);
  if (minutes < 1) return 'menos de 1 min';
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  const rest = minutes % 60;
  if (days > 0) return hours > 0 ? `${days} d ${hours} h` : `${days} d`;
  if (hours > 0) return rest > 0 ? `${hours} h ${rest} min` : `${hours} h`;
  return `${rest} min`;
}

/** Days over which the staff home sums up the customers' ratings (issue 22). */
export const RATING_PERIOD_DAYS = 30;

/**
 * The customers' ratings of the last {@link RATING_PERIOD_DAYS} days: how many, their average (null
 * without any), the share rated 4 or 5 (0 to 1; null without any), and the comments, newest first.
 */
export interface RatingSummary {
  count: number;
  average: number | null;
  satisfied: number | null;
  comments: Array<{ numeroIncidencia: string; valor: number; texto: string; fecha: string }>;
}
