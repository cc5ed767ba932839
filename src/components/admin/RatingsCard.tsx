import { formatStaffDateTime } from '../../domain/dates';
import { RATING_PERIOD_DAYS, type RatingSummary } from '../../domain/dashboard';
import { incidentPath } from '../../routes';
import { formatNumber } from '../../domain/numbers';

const decimal = { format: (value: number) => formatNumber(value, 1, true) };
const percent = new Intl.NumberFormat('es-DO', { style: 'percent', maximumFractionDigits: 0 });

/**
 * 'Valoración de los clientes' on the staff home (issue 22): the average rating and the share of 4–5
 * over the last 30 days, and the comments behind 'Ver comentarios' (a <details>: no JavaScript).
 * Every text is the customer's: rendered as text by React, so escaped.
 */
export default function RatingsCard({ ratings }: { ratings: RatingSummary }) {
  return (
    <section
      aria-labelledby="tarjeta-valoracion"
      className="rounded-card border border-line bg-white p-6 shadow-sm"
      data-testid="valoracion-clientes"
    >
      <h2 id="tarjeta-valoracion" className="text-sm font-semibold tracking-wide text-muted uppercase">
        Valoración de los clientes
      </h2>
      <p className="mt-1 text-sm text-muted">Últimos {RATING_PERIOD_DAYS} días.</p>
      {ratings.count ? (
        <>
          <dl className="mt-4 grid grid-cols-2 gap-4 sm:grid-cols-3">
            <div>
              <dt className="text-sm text-muted">Promedio</dt>
              <dd className="text-3xl font-bold text-brand-900" data-testid="valoracion-promedio">
                {decimal.format(ratings.average ?? 0)}{' '}
                <span className="text-base font-medium text-muted">de 5</span>
              </dd>
            </div>
            <div>
              <dt className="text-sm text-muted">Con 4 o 5</dt>
              <dd className="text-3xl font-bold text-brand-900" data-testid="valoracion-satisfechos">
                {percent.format(ratings.satisfied ?? 0)}
              </dd>
            </div>
            <div>
              <dt className="text-sm text-muted">Valoraciones</dt>
              <dd className="text-3xl font-bold text-brand-900" data-testid="valoracion-total">
                {ratings.count}
              </dd>
            </div>
          </dl>
          <details className="mt-4 rounded-button border border-line">
            <summary className="cursor-pointer px-3 py-2 text-sm font-semibold text-brand-800">
              Ver comentarios ({ratings.comments.length})
            </summary>
            {ratings.comments.length ? (
              <ul className="divide-y divide-line border-t border-line" data-testid="valoracion-comentarios">
                {ratings.comments.map((comment) => (
                  <li key={`${comment.numeroIncidencia}-${comment.fecha}`} className="px-3 py-3 text-sm">
                    <p className="flex flex-wrap gap-x-2 text-xs text-muted">
                      <a
                        href={incidentPath(comment.numeroIncidencia)}
                        className="font-semibold text-brand-700 hover:underline"
                      >
                        {comment.numeroIncidencia}
                      </a>
                      <span>· {comment.valor} de 5</span>
                      <span>· {formatStaffDateTime(comment.fecha)}</span>
                    </p>
                    <p className="mt-1 whitespace-pre-wrap wrap-anywhere text-ink">{comment.texto}</p>
                  </li>
                ))}
              </ul>
            ) : (
              <p className="border-t border-line px-3 py-3 text-sm text-muted">
                Ninguna valoración trae comentario.
              </p>
            )}
          </details>
        </>
      ) : (
        <p className="mt-4 text-sm text-muted">
          Aún no hay valoraciones en los últimos {RATING_PERIOD_DAYS} días.
        </p>
      )}
    </section>
  );
}
