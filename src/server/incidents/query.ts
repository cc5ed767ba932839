/**
 * The staff incident list's URL query (`?numero=&nombre=&rnc=&estado=&prioridad=&asignacion=&origen=&plazo=&orden=&pagina=`):
 * read into filters and a page, junk dropped, and written back for links that keep the current view.
 */
import {
  isIncidentOrigin,
  isIncidentPriority,
  isIncidentState,
  type IncidentOrigin,
  type IncidentPriority,
  type IncidentState,
} from '../../domain/incidents.ts';

const MAX_FILTER_LENGTH = 100;

/** 'Vencidas' (`vencidas`: past their next due time) and 'Vencen hoy' (`hoy`: due later today), issue 22. */
export const DEADLINE_FILTERS = ['vencidas', 'hoy'] as const;
export type DeadlineFilter = (typeof DEADLINE_FILTERS)[number];

/** 'Asignadas a mí' (`mias`: the signed-in staff member's) or 'Sin asignar' (`sin-asignar`). */
export const ASSIGNMENT_FILTERS = ['mias', 'sin-asignar'] as const;
export type AssignmentFilter = (typeof ASSIGNMENT_FILTERS)[number];

export interface IncidentFilters {
  /** 'Texto' (issue 22): words of the problem, the conversation or the identifiers, by the staff search's index. */
  q?: string;
  numero?: string;
  nombre?: string;
  rnc?: string;
  estado?: IncidentState;
  /** 'Prioridad' (issue 22). */
  prioridad?: IncidentPriority;
  asignacion?: AssignmentFilter;
  /** Where it came from: 'Formulario' or 'Correo' (issue 21). */
  origen?: IncidentOrigin;
  /** 'Vencidas' or 'Vencen hoy' (issue 22). */
  plazo?: DeadlineFilter;
  /** The order: 'Última actividad'; absent, 'Más recientes' (by creation). */
  orden?: 'actividad';
}

/**
 * Filters and page from a URL's query (`?numero=&nombre=&rnc=&estado=&prioridad=&asignacion=&origen=&orden=&pagina=`);
 * junk is dropped.
 */
export function parseIncidentQuery(params: URLSearchParams): { filters: IncidentFilters; page: number } {
  const text = (name: string) => {
    const value = params.get(name)?.trim().slice(0, MAX_FILTER_LENGTH);
    return value ? value : undefined;
  };
  const estado = params.get('estado');
  const origen = params.get('origen');
  const prioridad = params.get('prioridad');
  const asignacion = params.get('asignacion');
  const plazo = params.get('plazo');
  const page = Number.parseInt(params.get('pagina') ?? '1', 10);
  return {
    filters: {
      q: text('q'),
      numero: text('numero'),
      nombre: text('nombre'),
      rnc: text('rnc'),
      estado: isIncidentState(estado) ? estado : undefined,
      prioridad: isIncidentPriority(prioridad) ? prioridad : undefined,
      asignacion: (ASSIGNMENT_FILTERS as readonly (string | null)[]).includes(asignacion)
        ? (asignacion as AssignmentFilter)
        : undefined,
      origen: isIncidentOrigin(origen) ? origen : undefined,
      plazo: (DEADLINE_FILTERS as readonly (string | null)[]).includes(plazo)
        ? (plazo as DeadlineFilter)
        : undefined,
      orden: params.get('orden') === 'actividad' ? 'actividad' : undefined,
    },
    page: Number.isFinite(page) && page >= 1 && page <= 100_000 ? page : 1,
  };
}

/** The query string for these filters (and page), for links that keep the current view. */
export function incidentQueryString(filters: IncidentFilters, page = 1): string {
  const params = new URLSearchParams();
  for (const key of [
    'q',
    'numero',
    'nombre',
    'rnc',
    'estado',
    'prioridad',
    'asignacion',
    'origen',
    'plazo',
    'orden',
  ] as const) {
    const value = filters[key];
    if (value) params.set(key, value);
  }
  if (page > 1) params.set('pagina', String(page));
  const query = params.toString();
  return query ? `?${query}` : '';
}
