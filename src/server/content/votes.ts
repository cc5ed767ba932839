/**
 * '¿Te resultó útil?' (issue 23, migration 0035): the 'Sí' / 'No' counts of each help article. Only
 * counts are kept — no cookie, no visitor, no address; the endpoint that takes a vote
 * (src/pages/api/ayuda/util.ts) limits each client network like the other public forms.
 */
import { sql } from 'kysely';
import { isPublicAt } from '../../domain/articles.ts';
import type { Db } from '../db/index.ts';

export interface VoteCounts {
  helpful: number;
  notHelpful: number;
}

/**
 * Counts one vote for a help article public at `now`, in one statement (parallel votes all count).
 * Returns false, counting nothing, for an id that is not a public help article.
 */
export async function recordVote(
  db: Db,
  articleId: number,
  helpful: boolean,
  now: Date = new Date(),
): Promise<boolean> {
  if (!Number.isSafeInteger(articleId) || articleId <= 0) return false;
  const article = await db
    .selectFrom('articles')
    .select(['kind', 'state', 'publishAt'])
    .where('id', '=', articleId)
    .executeTakeFirst();
  if (!article || article.kind !== 'ayuda' || !isPublicAt(article, now)) return false;
  const column = helpful ? 'helpful' : 'notHelpful';
  await db
    .insertInto('articleVotes')
    .values({
      articleId,
      helpful: helpful ? 1 : 0,
      notHelpful: helpful ? 0 : 1,
      updatedAt: now.toISOString(),
    })
    .onConflict((oc) =>
      oc.column('articleId').doUpdateSet({
        [column]: sql<number>`${sql.ref(`articleVotes.${column}`)} + 1`,
        updatedAt: now.toISOString(),
      }),
    )
    .execute();
  return true;
}

/** The counts of every article voted on, by id (an article never voted on is absent: 0 and 0). */
export async function voteCounts(db: Db): Promise<Map<number, VoteCounts>> {
  const rows = await db.selectFrom('articleVotes').select(['articleId', 'helpful', 'notHelpful']).execute();
  return new Map(
    rows.map((row) => [
      Number(row.articleId),
      { helpful: Number(row.helpful), notHelpful: Number(row.notHelpful) },
    ]),
  );
}
