/**
 * The help centre's search (issue 23): `/ayuda?q=…` and the support dialog's suggestions
 * (`/api/ayuda/sugerencias`). The help articles are few (tens, not thousands), so they are searched in
 * memory: each public 'Ayuda' article's words become terms by the staff search's own rule
 * (src/server/search-terms.ts: lower case, accents dropped, Spanish Snowball stems: 'facturacion'
 * finds 'Facturación', 'imprime' finds 'imprimir', 'factura' finds 'facturación'), kept per process and rebuilt when the articles'
 * fingerprint changes (one small query per search, so a change made by another process is seen at once).
 *
 * A query's common words ('de', 'la', 'cómo'…) are left out; an article matches when it holds at least
 * one of the other words (or a word of its family). Best first: more of the query's words, then where
 * they are (title, then tags, then summary, then text), then the words as typed before their family, then
 * the title.
 */
import { changeMarks, marksOf } from './changes.ts';
import { articlePathOf, isPublicAt } from '../../domain/articles.ts';
import type { Db } from '../db/index.ts';
import { foldWord, queryWords, termsOf } from '../search-terms.ts';
import { toArticle } from './articles.ts';

/** Words a query about a problem is full of, which say nothing of its subject (folded: no accents). */
const COMMON_WORDS = new Set(
  (
    'a al algo como con cual cuando de del donde el ella en es esta este esto eso hay la las le lo los me mi mis ' +
    'no nos o para pero por porque puedo que quiero se si sin su sus te tengo tu un una uno y ya yo ' +
    'hacer hago puede funciona ayuda favor hola buenas buenos dias tardes'
  ).split(' '),
);

/** A word's weight by where it appears. */
const WEIGHTS = { title: 8, tags: 4, excerpt: 2, body: 1 } as const;

export interface HelpSearchHit {
  id: number;
  slug: string;
  path: string;
  title: string;
  excerpt: string;
  tags: string[];
}

interface Entry extends HelpSearchHit {
  state: string;
  publishAt: string | null;
  /** The weight of each term: the highest of the fields it appears in. */
  terms: Map<string, number>;
}

const WORD = /[\p{L}\p{N}]+/gu;

function addTerms(terms: Map<string, number>, text: string, weight: number): void {
  for (const [word] of text.matchAll(WORD)) {
    for (const term of termsOf(word)) if ((terms.get(term) ?? 0) < weight) terms.set(term, weight);
  }
}

/** Markdown's link addresses and image sources say nothing a reader searches for. */
const stripMarkdown = (body: string) => body.replace(/\]\([^)]*\)/g, ']').replace(/<[^>]*>/g, ' ');

interface Cache {
  fingerprint: string;
  entries: Entry[];
}
let cache: { db: Db; value: Cache } | null = null;

async function fingerprintOf(db: Db): Promise<string> {
  const row = await db
    .selectFrom('articles')
    .select(changeMarks)
    .where('kind', '=', 'ayuda')
    .executeTakeFirst();
  return JSON.stringify(marksOf(row));
}

/** Every help article that is or may become public (drafts never are), with its terms. */
async function entriesOf(db: Db): Promise<Entry[]> {
  const fingerprint = await fingerprintOf(db);
  if (cache?.db === db && cache.value.fingerprint === fingerprint) return cache.value.entries;
  const rows = await db
    .selectFrom('articles')
    .selectAll()
    .where('kind', '=', 'ayuda')
    .where('state', 'in', ['publicado', 'programado'])
    .execute();
  const entries = rows.map((row) => {
    const article = toArticle(row);
    const terms = new Map<string, number>();
    addTerms(terms, stripMarkdown(article.body), WEIGHTS.body);
    addTerms(terms, article.excerpt, WEIGHTS.excerpt);
    addTerms(terms, article.tags.join(' '), WEIGHTS.tags);
    addTerms(terms, article.title, WEIGHTS.title);
    return {
      id: article.id,
      slug: article.slug,
      path: articlePathOf('ayuda', article.slug),
      title: article.title,
      excerpt: article.excerpt,
      tags: article.tags,
      state: article.state,
      publishAt: article.publishAt,
      terms,
    };
  });
  cache = { db, value: { fingerprint, entries } };
  return entries;
}

/** What a query looks for: each of its words but the common ones, as its terms (either finds the word). */
export function helpQueryTerms(query: string): string[][] {
  const words = queryWords(query).filter((word) => !COMMON_WORDS.has(foldWord(word)));
  const found = new Set<string>();
  // One entry per family: 'facturación' and 'facturacion' in the same query count once.
  return words.map(termsOf).filter((terms) => {
    if (terms.some((term) => found.has(term))) return false;
    for (const term of terms) found.add(term);
    return true;
  });
}

/** The public help articles that match `query`, best first (none for a query of only common words). */
export async function searchHelp(
  db: Db,
  query: string,
  { limit = 50, now = new Date() }: { limit?: number; now?: Date } = {},
): Promise<HelpSearchHit[]> {
  const terms = helpQueryTerms(query);
  if (terms.length === 0) return [];
  const scored: Array<{ entry: Entry; found: number; score: number; exact: number }> = [];
  for (const entry of await entriesOf(db)) {
    if (!isPublicAt(entry, now)) continue;
    let found = 0;
    let score = 0;
    // The weight of the words found as typed (their first term), not only by their family.
    let exact = 0;
    for (const family of terms) {
      const weight = Math.max(...family.map((term) => entry.terms.get(term) ?? 0));
      if (weight === 0) continue;
      found += 1;
      score += weight;
      exact += entry.terms.get(family[0]!) ?? 0;
    }
    if (found > 0) scored.push({ entry, found, score, exact });
  }
  scored.sort(
    (a, b) =>
      b.found - a.found ||
      b.score - a.score ||
      b.exact - a.exact ||
      a.entry.title.localeCompare(b.entry.title, 'es'),
  );
  return scored.slice(0, limit).map(({ entry }) => ({
    id: entry.id,
    slug: entry.slug,
    path: entry.path,
    title: entry.title,
    excerpt: entry.excerpt,
    tags: entry.tags,
  }));
}
