import {
  INCIDENT_STATE_TONE,
  INCIDENT_STATES,
  type IncidentState,
  type IncidentTone,
} from '../../domain/incidents';
import type { DashboardCharts as ChartsData, RatingSummary } from '../../domain/dashboard';
import { ROUTES } from '../../routes';
import DashboardCharts from './charts/DashboardCharts';
import { ExternalIcon } from './icons';
import PendingMessagesCard from './PendingMessagesCard';
import RatingsCard from './RatingsCard';
import OnTimeCard from './OnTimeCard';
import type { OnTimePeriod } from '../../server/incidents/clock';
import UpcomingMeetings, { type UpcomingMeetingItem } from './UpcomingMeetings';
import { formatNumber } from '../../domain/numbers';

export interface NewsItem {
  id: string;
  title: string;
  message: string;
  link: string;
}

export interface DashboardProps {
  /** Display name of the staff member, or their e-mail when they have none. */
  displayName: string;
  analyticsUrl: string;
  visitsToday: number;
  topPages: { path: string; views: number }[];
  /** The latest announcements (the site's "what's new" list), newest first. */
  news: NewsItem[];
  incidentCounts: Record<IncidentState, number>;
  /** Contact messages waiting for someone ('Mensajes por atender'). */
  pendingMessages: number;
  /** 'Próximas reuniones'. */
  meetings: UpcomingMeetingItem[];
  charts: ChartsData;
  /** 'Valoración de los clientes' (issue 22). */
  ratings: RatingSummary;
  /** '% dentro del plazo' (issue 22): the last 30 days and the 30 before. */
  onTime: { current: OnTimePeriod; previous: OnTimePeriod };
}

const number = { format: (value: number) => formatNumber(value) };

function Card({
  title,
  children,
  className = '',
}: {
  title: string;
  children: React.ReactNode;
  className?: string;
}) {
  const id = `tarjeta-${title.toLowerCase().replace(/[^a-z]+/g, '-')}`;
  return (
    <section
      aria-labelledby={id}
      className={`min-w-0 rounded-card border border-line bg-white p-6 shadow-sm ${className}`}
    >
      <h2 id={id} className="text-sm font-semibold tracking-wide text-muted uppercase">
        {title}
      </h2>
      <div className="mt-4">{children}</div>
    </section>
  );
}

const TONE_STYLES: Record<IncidentTone, string> = {
  new: 'bg-sun-100 text-amber-800',
  active: 'bg-brand-100 text-brand-700',
  waiting: 'bg-slate-100 text-slate-700',
  done: 'bg-accent-100 text-accent-700',
};

/**
 * The staff home: welcome, analytics link, the cards, the meetings and messages waiting, the charts and
 * the news. One React render on the server, no JavaScript on the page.
 */
export default function Dashboard({
  displayName,
  analyticsUrl,
  visitsToday,
  topPages,
  news,
  incidentCounts,
  pendingMessages,
  meetings,
  charts,
  ratings,
  onTime,
}: DashboardProps) {
  const maxViews = Math.max(1, ...topPages.map((page) => page.views));
  return (
    <div className="flex flex-col gap-8">
      <div className="flex flex-col gap-4 rounded-card bg-brand-900 p-6 text-white sm:flex-row sm:items-center sm:justify-between sm:p-8">
        <div className="min-w-0">
          <p className="text-sm text-brand-100">Panel Administrativo</p>
          <h1 className="mt-1 text-2xl font-bold tracking-tight wrap-anywhere sm:text-3xl">
            {/* A greeting that fits anyone (issue 39): not 'Bienvenido' nor 'Bienvenida'. */}
            ¡Hola, {displayName}!
          </h1>
          <p className="mt-2 max-w-xl text-sm text-brand-100">
            Sigue las incidencias de soporte, administra los clientes y revisa el tráfico del sitio.
          </p>
        </div>
        <a
          href={analyticsUrl}
          target="_blank"
          rel="noopener noreferrer"
          className="inline-flex shrink-0 items-center gap-2 self-start rounded-button bg-white px-4 py-2.5 text-sm font-semibold text-brand-900 hover:bg-brand-50 sm:self-center"
        >
          Ver analíticas completas
          <ExternalIcon className="size-4" />
          <span className="sr-only">(se abre en una pestaña nueva)</span>
        </a>
      </div>

      <div className="grid gap-6 md:grid-cols-2 xl:grid-cols-4">
        <Card title="Visitas de hoy">
          <p className="text-4xl font-bold text-brand-900" data-testid="visitas-hoy">
            {number.format(visitsToday)}
          </p>
          <p className="mt-2 text-sm text-muted">
            Páginas vistas hoy en el sitio público (hora de Santo Domingo).
          </p>
        </Card>

        <Card title="Incidencias" className="xl:col-span-1">
          <ul className="flex flex-col gap-2">
            {INCIDENT_STATES.map((state) => (
              <li key={state}>
                <a
                  href={`${ROUTES.adminIncidents}?estado=${encodeURIComponent(state)}`}
                  className="flex items-center justify-between rounded-button px-2 py-1.5 hover:bg-surface"
                >
                  <span
                    className={`rounded-full px-2.5 py-0.5 text-xs font-semibold ${TONE_STYLES[INCIDENT_STATE_TONE[state]]}`}
                  >
                    {state}
                  </span>
                  <span className="text-lg font-semibold text-ink" data-testid={`incidencias-${state}`}>
                    {number.format(incidentCounts[state])}
                  </span>
                </a>
              </li>
            ))}
          </ul>
        </Card>

        <Card title="Páginas más vistas" className="md:col-span-2 xl:col-span-2">
          {topPages.length ? (
            <ol className="flex flex-col gap-3">
              {topPages.map((page) => (
                <li key={page.path} className="flex flex-col gap-1">
                  <div className="flex items-center justify-between gap-3 text-sm">
                    <span className="min-w-0 truncate font-medium text-ink" title={page.path}>
                      {page.path}
                    </span>
                    <span className="shrink-0 text-muted">
                      {number.format(page.views)} {page.views === 1 ? 'visita' : 'visitas'}
                    </span>
                  </div>
                  <div className="h-1.5 rounded-full bg-brand-50" aria-hidden="true">
                    <div
                      className="h-1.5 rounded-full bg-accent-500"
                      style={{ width: `${Math.round((page.views / maxViews) * 100)}%` }}
                    />
                  </div>
                </li>
              ))}
            </ol>
          ) : (
            <p className="text-sm text-muted">Aún no hay visitas registradas en los últimos 30 días.</p>
          )}
        </Card>
      </div>

      <div className="grid gap-6 md:grid-cols-3">
        <PendingMessagesCard count={pendingMessages} />
        <div className="md:col-span-2">
          <UpcomingMeetings meetings={meetings} />
        </div>
      </div>
      <div className="grid gap-6 lg:grid-cols-2">
        <RatingsCard ratings={ratings} />
        <OnTimeCard onTime={onTime} />
      </div>
      <DashboardCharts charts={charts} />

      <Card title="Últimas novedades">
        {news.length ? (
          <ul className="divide-y divide-line">
            {news.map((item) => (
              <li key={item.id} className="py-3 first:pt-0 last:pb-0">
                <a href={item.link} className="font-semibold text-brand-800 hover:underline">
                  {item.title}
                </a>
                <p className="mt-1 text-sm text-muted">{item.message}</p>
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-sm text-muted">No hay novedades publicadas.</p>
        )}
      </Card>
    </div>
  );
}
