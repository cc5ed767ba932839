/** 'Visitas de los últimos 30 días': page views per day, as bars (drawn on the server). */
import { scaleBand, scaleLinear, scaleUtc } from 'd3-scale';
import { utcMonday } from 'd3-time';
import type { DayVisits } from '../../../domain/dashboard';
import {
  CHART_HEIGHT,
  CHART_WIDTH,
  ChartCard,
  ChartSvg,
  YGrid,
  MARGIN,
  calendarDate,
  longDay,
  number,
  shortDay,
} from './ChartCard';

export function VisitsChart({ visits }: { visits: DayVisits[] }) {
  const days = visits.map((item) => item.day);
  const total = visits.reduce((sum, item) => sum + item.views, 0);
  const busiest = visits.reduce<DayVisits | undefined>(
    (best, item) => (item.views > (best?.views ?? 0) ? item : best),
    undefined,
  );
  const quiet = visits.filter((item) => item.views === 0).length;

  const x = scaleBand<string>()
    .domain(days)
    .range([MARGIN.left, CHART_WIDTH - MARGIN.right])
    .paddingInner(0.25);
  const y = scaleLinear()
    .domain([0, Math.max(1, busiest?.views ?? 0)])
    .nice(4)
    .range([CHART_HEIGHT - MARGIN.bottom, MARGIN.top]);
  const yTicks = y.ticks(4).filter(Number.isInteger);
  // The Mondays of the period label the horizontal axis.
  const xTicks = days.length
    ? scaleUtc()
        .domain([calendarDate(days[0]!), calendarDate(days.at(-1)!)])
        .ticks(utcMonday)
    : [];
  const baseline = y(0);

  const first = days[0] ? longDay(days[0]) : '';
  const last = days.at(-1) ? longDay(days.at(-1)!) : '';
  const description =
    `Gráfico de barras de las páginas vistas por día del ${first} al ${last}: ${number.format(total)} en total` +
    (busiest
      ? `; el día con más visitas fue el ${longDay(busiest.day)}, con ${number.format(busiest.views)}`
      : '') +
    (quiet ? `; ${quiet} ${quiet === 1 ? 'día' : 'días'} sin visitas.` : '.');

  return (
    <ChartCard
      id="grafico-visitas"
      title="Visitas de los últimos 30 días"
      subtitle={`${number.format(total)} páginas vistas del sitio público, por día (hora de Santo Domingo).`}
      table={{
        caption: 'Páginas vistas por día',
        columns: ['Día', 'Visitas'],
        rows: visits.map((item) => [longDay(item.day), number.format(item.views)]),
      }}
    >
      {(ids) => (
        <ChartSvg ids={ids} title="Visitas de los últimos 30 días" description={description}>
          <g className="text-[11px]" aria-hidden="true">
            <YGrid ticks={yTicks} y={y} />
            {xTicks.map((tick) => {
              const day = tick.toISOString().slice(0, 10);
              return (
                <text
                  key={day}
                  x={(x(day) ?? 0) + x.bandwidth() / 2}
                  y={CHART_HEIGHT - 8}
                  textAnchor="middle"
                  className="fill-muted"
                >
                  {shortDay(tick)}
                </text>
              );
            })}
          </g>
          <g aria-hidden="true">
            {visits.map((item) => {
              const top = y(item.views);
              return (
                <rect
                  key={item.day}
                  x={x(item.day)}
                  width={x.bandwidth()}
                  // A day without views keeps a sliver on the axis: a zero, not a missing day.
                  y={item.views ? top : baseline - 2}
                  height={item.views ? baseline - top : 2}
                  rx={1.5}
                  className={item.views ? 'fill-brand-600' : 'fill-brand-100'}
                  data-day={item.day}
                  data-value={item.views}
                />
              );
            })}
          </g>
          <line
            x1={MARGIN.left}
            x2={CHART_WIDTH - MARGIN.right}
            y1={baseline}
            y2={baseline}
            className="stroke-muted"
            aria-hidden="true"
          />
        </ChartSvg>
      )}
    </ChartCard>
  );
}
