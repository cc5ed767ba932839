/**
 * 'Historial' (issue 23): what a revision of an article differs from the current text, as data the
 * editor renders (Astro escapes every piece of text; nothing here is HTML). The body is compared line
 * by line (a Markdown paragraph is one line) with the `diff` package; long unchanged stretches are
 * folded to their first and last lines, so a change reads on a phone. Other fields are shown as
 * "before → now" when they differ.
 */
import { diffLines } from 'diff';
import { ARTICLE_STATE_LABELS, type ArticleInput } from '../../domain/articles.ts';

/** One line of the body's diff: kept, only in the revision ('removed'), only in the current text ('added'), or a fold. */
export type DiffLine =
  { kind: 'same' | 'removed' | 'added'; text: string } | { kind: 'folded'; count: number };

export interface FieldChange {
  label: string;
  before: string;
  after: string;
}

export interface RevisionDiff {
  /** The fields other than the body that differ (revision → current). */
  fields: FieldChange[];
  /** The body's lines (revision → current); empty when the body is the same. */
  body: DiffLine[];
  /** Nothing differs from the current text. */
  same: boolean;
}

/** Unchanged lines kept around a change. */
const CONTEXT = 2;

const FIELD_LABELS: Array<[keyof ArticleInput, string]> = [
  ['title', 'Título'],
  ['slug', 'Dirección (slug)'],
  ['kind', 'Tipo'],
  ['excerpt', 'Resumen'],
  ['coverImage', 'Imagen de portada'],
  ['coverAlt', 'Descripción de la imagen'],
  ['author', 'Autor'],
  ['tags', 'Etiquetas'],
  ['seoTitle', 'Título SEO'],
  ['seoDescription', 'Descripción SEO'],
];

const shown = (value: unknown): string =>
  Array.isArray(value) ? value.join(', ') : value === null || value === undefined ? '' : String(value);

const linesOf = (value: string) => {
  const lines = value.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines;
};

/** The body's lines from `before` to `after`, unchanged stretches folded beyond {@link CONTEXT} lines of a change. */
export function bodyDiff(before: string, after: string): DiffLine[] {
  if (before === after) return [];
  const lines: DiffLine[] = [];
  const parts = diffLines(before, after);
  parts.forEach((part, index) => {
    const text = linesOf(part.value);
    if (part.added || part.removed) {
      for (const line of text) lines.push({ kind: part.added ? 'added' : 'removed', text: line });
      return;
    }
    const head = index === 0 ? 0 : CONTEXT;
    const tail = index === parts.length - 1 ? 0 : CONTEXT;
    if (text.length <= head + tail + 1) {
      for (const line of text) lines.push({ kind: 'same', text: line });
      return;
    }
    for (const line of text.slice(0, head)) lines.push({ kind: 'same', text: line });
    lines.push({ kind: 'folded', count: text.length - head - tail });
    for (const line of text.slice(text.length - tail)) lines.push({ kind: 'same', text: line });
  });
  return lines;
}

/** What changed from a revision to the current article (and in its state, said apart). */
export function revisionDiff(revision: ArticleInput, current: ArticleInput): RevisionDiff {
  const fields = FIELD_LABELS.filter(([key]) => shown(revision[key]) !== shown(current[key])).map(
    ([key, label]) => ({
      label,
      before: shown(revision[key]),
      after: shown(current[key]),
    }),
  );
  const body = bodyDiff(revision.body, current.body);
  return { fields, body, same: fields.length === 0 && body.length === 0 };
}

export const stateLabel = (state: string): string =>
  (ARTICLE_STATE_LABELS as Record<string, string>)[state] ?? state;
