/** 'Incidencias por semana': incidents opened versus first resolved per week, as two lines (drawn on the server). */
import { scalePoint } from 'd3-scale';
import { line } from 'd3-shape';
import type { WeekIncidents } from '../../../domain/dashboard';
import {
  Axes,
  CHART_WIDTH,
  ChartCard,
  ChartSvg,
  MARGIN,
  countScale,
  longDay,
  mondayTicks,
  number,
} from './ChartCard';

const SERIES = [
  { key: 'opened', label: 'Abiertas', stroke: 'stroke-brand-600', fill: 'fill-brand-600', dash: undefined },
  { key: 'resolved', label: 'Resueltas', stroke: 'stroke-accent-600', fill: 'fill-accent-600', dash: '5 3' },
] as const;

export function IncidentsWeekChart({ weeks }: { weeks: WeekIncidents[] }) {
  const mondays = weeks.map((item) => item.week);
  const opened = weeks.reduce((sum, item) => sum + item.opened, 0);
  const resolved = weeks.reduce((sum, item) => sum + item.resolved, 0);
  const highest = Math.max(1, ...weeks.flatMap((item) => [item.opened, item.resolved]));

  const x = scalePoint<string>()
    .domain(mondays)
    .range([MARGIN.left, CHART_WIDTH - MARGIN.right])
    .padding(0.3);
  const { y, yTicks } = countScale(highest);
  // Every other Monday labels the horizontal axis.
  const xTicks = mondayTicks(mondays, 2);
  const path = (key: 'opened' | 'resolved') =>
    line<WeekIncidents>()
      .x((item) => x(item.week) ?? 0)
      .y((item) => y(item[key]))(weeks) ?? '';

  const first = mondays[0] ? longDay(mondays[0]) : '';
  const description =
    `Gráfico de líneas de las incidencias abiertas y resueltas por semana, ${weeks.length} semanas desde la del ${first}: ` +
    `${number.format(opened)} abiertas y ${number.format(resolved)} resueltas en total. ` +
    `Esta semana: ${number.format(weeks.at(-1)?.opened ?? 0)} abiertas y ${number.format(weeks.at(-1)?.resolved ?? 0)} resueltas.`;

  return (
    <ChartCard
      id="grafico-incidencias"
      title="Incidencias por semana"
      subtitle="Abiertas frente a resueltas en las últimas 12 semanas (de lunes a domingo, hora de Santo Domingo)."
      lead={
        <ul className="flex flex-wrap gap-x-5 gap-y-1 text-sm text-ink" aria-label="Leyenda">
          {SERIES.map((series) => (
            <li key={series.key} className="flex items-center gap-2">
              <svg viewBox="0 0 24 8" className="h-2 w-6" aria-hidden="true">
                <line
                  x1="0"
                  x2="24"
                  y1="4"
                  y2="4"
                  strokeWidth="2.5"
                  strokeDasharray={series.dash}
                  className={series.stroke}
                />
              </svg>
              {series.label}
            </li>
          ))}
        </ul>
      }
      table={{
        caption: 'Incidencias abiertas y resueltas por semana',
        columns: ['Semana del', 'Abiertas', 'Resueltas'],
        rows: weeks.map((item) => [
          longDay(item.week),
          number.format(item.opened),
          number.format(item.resolved),
        ]),
      }}
    >
      {(ids) => (
        <ChartSvg ids={ids} title="Incidencias por semana" description={description}>
          <Axes y={y} yTicks={yTicks} xTicks={xTicks} x={(week) => x(week) ?? 0} />
          <g aria-hidden="true" fill="none">
            {SERIES.map((series) => (
              <path
                key={series.key}
                d={path(series.key)}
                strokeWidth={2.5}
                strokeLinejoin="round"
                strokeDasharray={series.dash}
                className={series.stroke}
                data-series={series.key}
              />
            ))}
          </g>
          <g aria-hidden="true">
            {weeks.map((item) =>
              SERIES.map((series) => (
                <circle
                  key={`${item.week}-${series.key}`}
                  cx={x(item.week)}
                  cy={y(item[series.key])}
                  r={series.key === 'opened' ? 3.5 : 2.5}
                  className={`${series.fill} stroke-white`}
                  data-week={item.week}
                  data-series={series.key}
                  data-value={item[series.key]}
                />
              )),
            )}
          </g>
        </ChartSvg>
      )}
    </ChartCard>
  );
}
