/**
 * The frame every chart of the staff home shares: a titled card, the chart (an SVG drawn on the
 * server, named by its title and described in words for screen readers) and, behind 'Ver datos', a
 * table of the same numbers. No JavaScript: <details> opens by itself.
 */
import { scaleLinear, scaleUtc } from 'd3-scale';
import { utcMonday } from 'd3-time';
import type { ReactNode } from 'react';
import { formatNumber } from '../../../domain/numbers';

export interface ChartTable {
  caption: string;
  columns: string[];
  /** Each row's cells, already formatted; the first is the row's header. */
  rows: string[][];
}

export interface ChartCardProps {
  /** Builds the ids of the heading, the SVG's title and description, and the table. */
  id: string;
  title: string;
  /** What the card shows, in a line under the title (visible to everyone). */
  subtitle?: string;
  /** Extra content between the subtitle and the chart (a legend, key figures). */
  lead?: ReactNode;
  /** The chart itself; receives the ids its <title> and <desc> must carry. */
  children: (ids: { title: string; desc: string }) => ReactNode;
  table: ChartTable;
  className?: string;
}

export function ChartCard({ id, title, subtitle, lead, children, table, className = '' }: ChartCardProps) {
  const headingId = `${id}-titulo`;
  return (
    <section
      aria-labelledby={headingId}
      data-chart={id}
      className={`rounded-card border border-line bg-white p-4 shadow-sm sm:p-6 ${className}`}
    >
      <h2 id={headingId} className="text-sm font-semibold tracking-wide text-muted uppercase">
        {title}
      </h2>
      {subtitle ? <p className="mt-1 text-sm text-muted">{subtitle}</p> : null}
      {lead ? <div className="mt-3">{lead}</div> : null}
      <div className="mt-4">{children({ title: `${id}-svg-titulo`, desc: `${id}-svg-desc` })}</div>
      <details className="mt-4 text-sm">
        <summary className="cursor-pointer font-semibold text-brand-700 hover:text-brand-900">
          Ver datos
        </summary>
        <div className="mt-3">
          <table id={`${id}-datos`} className="w-full border-collapse text-left">
            <caption className="sr-only">{table.caption}</caption>
            <thead>
              <tr className="border-b border-line">
                {table.columns.map((column, index) => (
                  <th
                    key={column}
                    scope="col"
                    className={`py-1.5 pr-3 font-semibold text-ink ${index ? 'text-right' : ''}`}
                  >
                    {column}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {table.rows.map(([head, ...cells]) => (
                <tr key={head} className="border-b border-line last:border-0">
                  <th scope="row" className="py-1.5 pr-3 font-normal text-ink">
                    {head}
                  </th>
                  {cells.map((cell, index) => (
                    <td key={index} className="py-1.5 pr-3 text-right text-ink tabular-nums">
                      {cell}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </section>
  );
}

/** Drawing size of every chart (the SVG's viewBox; it scales to the card's width). */
export const CHART_WIDTH = 360;
export const CHART_HEIGHT = 200;
export const MARGIN = { top: 12, right: 12, bottom: 26, left: 36 };

/** Dates of the charts: a calendar day `yyyy-mm-dd` as '3 mar' (the day is a date, no time zone to apply). */
const SHORT_DAY = new Intl.DateTimeFormat('es-DO', { day: 'numeric', month: 'short', timeZone: 'UTC' });
const LONG_DAY = new Intl.DateTimeFormat('es-DO', {
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  timeZone: 'UTC',
});

export const calendarDate = (day: string) => new Date(`${day}T00:00:00Z`);
export const shortDay = (day: string | Date) =>
  SHORT_DAY.format(typeof day === 'string' ? calendarDate(day) : day).replace('.', '');
export const longDay = (day: string) => LONG_DAY.format(calendarDate(day));
export const number = { format: (value: number) => formatNumber(value) };

/** A chart's SVG at the shared size, named by its title and described by its text for screen readers. */
export function ChartSvg({
  ids,
  title,
  description,
  children,
}: {
  ids: { title: string; desc: string };
  title: string;
  description: string;
  children: React.ReactNode;
}) {
  return (
    <svg
      viewBox={`0 0 ${CHART_WIDTH} ${CHART_HEIGHT}`}
      role="img"
      aria-labelledby={`${ids.title} ${ids.desc}`}
      className="h-auto w-full overflow-visible"
    >
      <title id={ids.title}>{title}</title>
      <desc id={ids.desc}>{description}</desc>
      {children}
    </svg>
  );
}

/** The horizontal grid line and label of each of the y scale's ticks. */
export function YGrid({ ticks, y }: { ticks: number[]; y: (value: number) => number }) {
  return ticks.map((tick) => (
    <g key={tick}>
      <line
        x1={MARGIN.left}
        x2={CHART_WIDTH - MARGIN.right}
        y1={y(tick)}
        y2={y(tick)}
        className="stroke-line"
      />
      <text x={MARGIN.left - 6} y={y(tick)} dy="0.32em" textAnchor="end" className="fill-muted">
        {number.format(tick)}
      </text>
    </g>
  ));
}

/** The vertical scale of a chart of counts from 0 to `highest` (at least 1), and its whole-number ticks. */
export function countScale(highest: number) {
  const y = scaleLinear()
    .domain([0, Math.max(1, highest)])
    .nice(4)
    .range([CHART_HEIGHT - MARGIN.bottom, MARGIN.top]);
  return { y, yTicks: y.ticks(4).filter(Number.isInteger) };
}

/** The Mondays from the first to the last of `days` (`yyyy-mm-dd`), every `step`-th one. */
export function mondayTicks(days: readonly string[], step = 1): Date[] {
  return days.length
    ? scaleUtc()
        .domain([calendarDate(days[0]!), calendarDate(days.at(-1)!)])
        .ticks(utcMonday.every(step)!)
    : [];
}

/** Both axes' labels: the y grid, and under the chart each tick's day, centred on `x(day)`. */
export function Axes({
  y,
  yTicks,
  xTicks,
  x,
}: {
  y: (value: number) => number;
  yTicks: number[];
  xTicks: Date[];
  x: (day: string) => number;
}) {
  return (
    <g className="text-[11px]" aria-hidden="true">
      <YGrid ticks={yTicks} y={y} />
      {xTicks.map((tick) => {
        const day = tick.toISOString().slice(0, 10);
        return (
          <text key={day} x={x(day)} y={CHART_HEIGHT - 8} textAnchor="middle" className="fill-muted">
            {shortDay(tick)}
          </text>
        );
      })}
    </g>
  );
}
