/**
 * The staff incident list's URL query (`?numero=&nombre=&rnc=&estado=&prioridad=&asignacion=&origen=&plazo=&orden=&pagina=`):
 * read into filters and a page (a choice in any case; one that means nothing is named as invalid), and
 * written back for links that keep the current view.
 */
import {
  INCIDENT_ORIGINS,
  INCIDENT_PRIORITIES,
  INCIDENT_STATES,
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
  /** Where it came from: The support form's or a channel's origin (src/domain/channels.ts). */
  origen?: IncidentOrigin;
  /** 'Vencidas' or 'Vencen hoy' (issue 22). */
  plazo?: DeadlineFilter;
  /** The order: 'Última actividad'; absent, 'Más recientes' (by creation). */
  orden?: 'actividad';
}

/** A choice as typed in an address: case, accents and surrounding spaces never matter (issue 39). */
const folded = (value: string) => value.normalize('NFD').replace(/\p{M}/gu, '').trim().toLowerCase();

/**
 * Filters and page from a URL's query (`?numero=&nombre=&rnc=&estado=&prioridad=&asignacion=&origen=&orden=&pagina=`).
 * A choice (`estado`, `prioridad`, `asignacion`, `origen`, `plazo`) matches its values in any case and
 * with or without accents (`?origen=correo` is 'Correo'); one that matches none is named in `invalid`
 * (the list then says 'Filtro no válido' rather than show every incident), and an empty one is unset.
 */
export function parseIncidentQuery(params: URLSearchParams): {
  filters: IncidentFilters;
  page: number;
  invalid: string[];
} {
  const text = (name: string) => {
    const value = params.get(name)?.trim().slice(0, MAX_FILTER_LENGTH);
    return value ? value : undefined;
  };
  const invalid: string[] = [];
  const choice = <T extends string>(name: string, values: readonly T[]): T | undefined => {
    const raw = params.get(name);
    if (raw === null || raw.trim() === '') return undefined;
    const found = values.find((value) => folded(value) === folded(raw));
    if (!found) invalid.push(name);
    return found;
  };
  const page = Number.parseInt(params.get('pagina') ?? '1', 10);
  return {
    filters: {
      q: text('q'),
      numero: text('numero'),
      nombre: text('nombre'),
      rnc: text('rnc'),
      estado: choice('estado', INCIDENT_STATES),
      prioridad: choice('prioridad', INCIDENT_PRIORITIES),
      asignacion: choice('asignacion', ASSIGNMENT_FILTERS),
      origen: choice('origen', INCIDENT_ORIGINS),
      plazo: choice('plazo', DEADLINE_FILTERS),
      orden: params.get('orden') === 'actividad' ? 'actividad' : undefined,
    },
    page: Number.isFinite(page) && page >= 1 && page <= 100_000 ? page : 1,
    invalid,
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
