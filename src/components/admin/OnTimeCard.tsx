import type { OnTimePeriod } from '../../server/incidents/clock';

const percent = new Intl.NumberFormat('es-DO', { style: 'percent', maximumFractionDigits: 0 });

function Period({ label, period, testId }: { label: string; period: OnTimePeriod; testId: string }) {
  return (
    <div>
      <dt className="text-sm text-muted">{label}</dt>
      <dd className="text-3xl font-bold text-brand-900" data-testid={testId}>
        {period.total ? percent.format(period.met / period.total) : '—'}
      </dd>
      <dd className="text-sm text-muted">
        {period.total
          ? `${period.met} de ${period.total} ${period.total === 1 ? 'plazo' : 'plazos'}`
          : 'Ningún plazo en el periodo'}
      </dd>
    </div>
  );
}

/**
 * '% dentro del plazo' on the staff home (issue 22): of the first replies and resolutions reached in the
 * last 30 days, and of the targets that came due in them still open, the share met; beside the 30
 * days before (src/server/incidents/clock.ts).
 */
export default function OnTimeCard({
  onTime,
}: {
  onTime: { current: OnTimePeriod; previous: OnTimePeriod };
}) {
  return (
    <section
      aria-labelledby="tarjeta-plazo"
      className="rounded-card border border-line bg-white p-6 shadow-sm"
      data-testid="dentro-del-plazo"
    >
      <h2 id="tarjeta-plazo" className="text-sm font-semibold tracking-wide text-muted uppercase">
        % dentro del plazo
      </h2>
      <p className="mt-1 text-sm text-muted">Primeras respuestas y resoluciones, en horario laborable.</p>
      <dl className="mt-4 grid grid-cols-2 gap-4">
        <Period label="Últimos 30 días" period={onTime.current} testId="plazo-actual" />
        <Period label="30 días anteriores" period={onTime.previous} testId="plazo-anterior" />
      </dl>
    </section>
  );
}
