/** 'Visitas de los últimos 30 días': page views per day, as bars (drawn on the server). */
import { scaleBand } from 'd3-scale';
import type { DayVisits } from '../../../domain/dashboard';
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
  const { y, yTicks } = countScale(busiest?.views ?? 0);
  // The Mondays of the period label the horizontal axis.
  const xTicks = mondayTicks(days);
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
          <Axes y={y} yTicks={yTicks} xTicks={xTicks} x={(day) => (x(day) ?? 0) + x.bandwidth() / 2} />
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
