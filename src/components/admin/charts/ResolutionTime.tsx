/**
 * 'Tiempo de resolución': the median time from 'Registrado' to 'Resuelto' over the last 30 days, with
 * the 30 days before beside it: two figures and two horizontal bars (drawn on the server).
 */
import { scaleBand, scaleLinear } from 'd3-scale';
import { formatDuration, type ResolutionPeriod } from '../../../domain/dashboard';
import { ChartCard, longDay, number } from './ChartCard';

const WIDTH = 360;
const HEIGHT = 96;
const LABEL = 120;

function median(period: ResolutionPeriod): string {
  return period.medianSeconds === null ? 'Sin datos' : formatDuration(period.medianSeconds);
}

function basis(period: ResolutionPeriod): string {
  return period.resolved === 1
    ? '1 incidencia resuelta'
    : `${number.format(period.resolved)} incidencias resueltas`;
}

/** 'más rápido' / 'más lento' than before, in whole per cent; null when either period has no figure. */
function change(current: ResolutionPeriod, previous: ResolutionPeriod): string | null {
  if (current.medianSeconds === null || previous.medianSeconds === null || previous.medianSeconds === 0)
    return null;
  const ratio = Math.round((current.medianSeconds / previous.medianSeconds - 1) * 100);
  if (ratio === 0) return 'Igual que los 30 días anteriores.';
  return `${Math.abs(ratio)} % más ${ratio < 0 ? 'rápido' : 'lento'} que los 30 días anteriores.`;
}

export function ResolutionTime({
  current,
  previous,
}: {
  current: ResolutionPeriod;
  previous: ResolutionPeriod;
}) {
  const periods = [
    { key: 'actual', label: 'Últimos 30 días', period: current, fill: 'fill-accent-600' },
    { key: 'anterior', label: '30 días anteriores', period: previous, fill: 'fill-muted' },
  ];
  const y = scaleBand<string>()
    .domain(periods.map((item) => item.key))
    .range([4, HEIGHT - 4])
    .paddingInner(0.35);
  const x = scaleLinear()
    .domain([0, Math.max(1, current.medianSeconds ?? 0, previous.medianSeconds ?? 0)])
    .range([LABEL, WIDTH - 72]);
  const trend = change(current, previous);
  const description =
    `Mediana del tiempo desde el registro hasta la primera resolución. Últimos 30 días (del ${longDay(current.from)} al ${longDay(current.to)}): ` +
    `${median(current)}, sobre ${basis(current)}. 30 días anteriores (del ${longDay(previous.from)} al ${longDay(previous.to)}): ` +
    `${median(previous)}, sobre ${basis(previous)}.${trend ? ` ${trend}` : ''}`;

  return (
    <ChartCard
      id="grafico-resolucion"
      title="Tiempo de resolución"
      subtitle="Mediana desde 'Registrado' hasta el primer 'Resuelto'."
      lead={
        <>
          <dl className="grid grid-cols-2 gap-4">
            {periods.map((item) => (
              <div key={item.key}>
                <dt className="text-sm text-muted">{item.label}</dt>
                <dd
                  className="mt-1 text-2xl font-bold text-brand-900 sm:text-3xl"
                  data-testid={`resolucion-${item.key}`}
                >
                  {median(item.period)}
                </dd>
                <dd className="text-xs text-muted">{basis(item.period)}</dd>
              </div>
            ))}
          </dl>
          {trend ? <p className="mt-3 text-sm text-ink">{trend}</p> : null}
        </>
      }
      table={{
        caption: 'Mediana del tiempo de resolución por periodo',
        columns: ['Periodo', 'Mediana', 'Incidencias resueltas'],
        rows: periods.map((item) => [
          `${item.label} (${longDay(item.period.from)} – ${longDay(item.period.to)})`,
          median(item.period),
          number.format(item.period.resolved),
        ]),
      }}
    >
      {(ids) => (
        <svg
          viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
          role="img"
          aria-labelledby={`${ids.title} ${ids.desc}`}
          className="h-auto w-full"
        >
          <title id={ids.title}>Tiempo de resolución</title>
          <desc id={ids.desc}>{description}</desc>
          <g aria-hidden="true" className="text-[12px]">
            {periods.map((item) => {
              const top = y(item.key) ?? 0;
              const middle = top + y.bandwidth() / 2;
              const end = x(item.period.medianSeconds ?? 0);
              return (
                <g key={item.key}>
                  <text x={0} y={middle} dy="0.32em" className="fill-ink">
                    {item.label}
                  </text>
                  <rect
                    x={LABEL}
                    y={top}
                    width={Math.max(2, end - LABEL)}
                    height={y.bandwidth()}
                    rx={3}
                    className={item.period.medianSeconds === null ? 'fill-line' : item.fill}
                    data-period={item.key}
                    data-value={item.period.medianSeconds ?? ''}
                  />
                  <text
                    x={Math.max(LABEL + 2, end) + 6}
                    y={middle}
                    dy="0.32em"
                    className="fill-ink font-semibold"
                  >
                    {median(item.period)}
                  </text>
                </g>
              );
            })}
          </g>
        </svg>
      )}
    </ChartCard>
  );
}
