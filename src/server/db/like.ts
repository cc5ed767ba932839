/**
 * The staff searches' substring match: `column like '%term%' escape '\'`, with LIKE's own wildcards in
 * the term escaped, so that "50%" or "a_b" typed in a search box match literally. The same on SQLite
 * and PostgreSQL.
 */
import { sql, type RawBuilder, type SqlBool } from 'kysely';

/** A term holding one of LIKE's wildcards (or the escape character). */
export const LIKE_WILDCARDS = /[\\%_]/;

/** `%term%` with LIKE's wildcards escaped, for `like … escape '\'`. */
export function containsPattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}

/** `value like '%term%' escape '\'`: the term, literally, anywhere in `value` (a column or an expression). */
export function likeContains(value: RawBuilder<unknown>, term: string): RawBuilder<SqlBool> {
  return sql<SqlBool>`${value} like ${containsPattern(term)} escape '\\'`;
}
