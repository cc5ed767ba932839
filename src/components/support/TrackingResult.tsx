import type { AttachmentView } from '../../domain/attachments';
import {
  INCIDENT_STATE_TONE,
  isIncidentState,
  WAITING_STATE,
  type IncidentTone,
} from '../../domain/incidents';
import AttachmentList from './AttachmentList';
import { IncidentNumber } from '../ui/KeepWhole';

export interface TrackingResultProps {
  numeroIncidencia: string;
  /** Shown only to whoever opened the page with the token of the visitor's mail. */
  problema?: string;
  estado: string;
  /** Already formatted for display (Santo Domingo time). */
  fecha: string;
  /** States and, opened with the token, the staff replies and the visitor's answers (`texto`, `de`), oldest first. */
  historial: Array<{
    estado: string;
    fecha: string;
    texto?: string;
    de?: 'equipo' | 'cliente';
    adjuntos?: AttachmentView[];
  }>;
  /** The files sent with the problem (opened with the token). */
  adjuntos?: AttachmentView[];
  /** The follow-up link's token, for the files' links. */
  token?: string;
  /** Where the page's 'Responder' box is (opened with the token and still open to answers): linked from the top. */
  answerHref?: string;
}

const TONE_STYLES: Record<IncidentTone, string> = {
  new: 'bg-brand-100 text-brand-800',
  active: 'bg-sun-100 text-[#8a4b06]',
  waiting: 'bg-slate-100 text-slate-700',
  done: 'bg-accent-100 text-accent-700',
};

/** The state of one incident and its history (with the replies, when given), newest last. Every value is rendered as text. */
export default function TrackingResult({
  numeroIncidencia,
  problema,
  estado,
  fecha,
  historial,
  answerHref,
  adjuntos,
  token,
}: TrackingResultProps) {
  return (
    <section
      aria-labelledby="seguimiento-resultado"
      className="rounded-card border border-line bg-white p-6 shadow-sm sm:p-8"
    >
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="seguimiento-resultado" className="font-mono text-xl font-bold text-brand-900">
          <IncidentNumber numero={numeroIncidencia} />
        </h2>
        <p className="text-sm text-muted">
          Estado actual:{' '}
          <span
            className={`ml-1 inline-flex rounded-full px-3 py-1 text-sm font-semibold ${isIncidentState(estado) ? TONE_STYLES[INCIDENT_STATE_TONE[estado]] : 'bg-surface text-ink'}`}
          >
            {estado}
          </span>
        </p>
      </div>
      <div className="mt-2 flex flex-wrap items-center justify-between gap-3">
        <p className="text-sm text-muted">Registrada el {fecha}</p>
        {answerHref ? (
          <a
            href={answerHref}
            className="text-sm font-semibold text-brand-700 underline underline-offset-4 hover:text-brand-900"
          >
            Responder
          </a>
        ) : null}
      </div>
      {estado === WAITING_STATE ? (
        <p
          className="mt-4 rounded-button border border-slate-300 bg-slate-50 px-4 py-3 text-sm text-ink"
          data-testid="esperando-respuesta"
        >
          Esperamos tu respuesta para continuar.{' '}
          {answerHref ? (
            <a
              href={answerHref}
              className="font-semibold text-brand-700 underline underline-offset-4 hover:text-brand-900"
            >
              Responde aquí
            </a>
          ) : (
            'Respóndenos desde el enlace de tu correo.'
          )}
        </p>
      ) : null}
      {problema ? (
        <blockquote className="mt-5 rounded-button border-l-4 border-accent-600 bg-surface px-4 py-3 text-sm whitespace-pre-line text-ink">
          {problema}
        </blockquote>
      ) : null}
      {token && adjuntos?.length ? <AttachmentList files={adjuntos} token={token} /> : null}
      <h3 className="mt-6 text-sm font-semibold tracking-wide text-muted uppercase">Historial</h3>
      <ol className="mt-3 flex flex-col gap-0">
        {historial.map((entry, index) => (
          <li key={`${entry.estado}-${index}`} className="relative flex gap-4 pb-5 last:pb-0">
            <span aria-hidden="true" className="relative flex w-3 justify-center">
              <span className="mt-1.5 size-3 rounded-full bg-accent-600 ring-4 ring-accent-100" />
              {index < historial.length - 1 ? (
                <span className="absolute top-5 bottom-0 w-px bg-line" />
              ) : null}
            </span>
            <div className="min-w-0">
              <p className="font-semibold text-brand-900">{entry.estado}</p>
              <p className="text-sm text-muted">{entry.fecha}</p>
              {entry.texto !== undefined ? (
                <p
                  className="mt-2 rounded-button bg-surface px-4 py-3 text-sm break-words whitespace-pre-wrap text-ink"
                  data-testid={entry.de === 'cliente' ? 'tu-respuesta' : 'respuesta'}
                >
                  {entry.texto}
                </p>
              ) : null}
              {token && entry.adjuntos?.length ? (
                <AttachmentList files={entry.adjuntos} token={token} />
              ) : null}
            </div>
          </li>
        ))}
      </ol>
    </section>
  );
}
