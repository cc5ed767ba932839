/**
 * The timer that makes the next scheduled article public with no request (docs/decisions/0019), or,
 * sooner, wakes the public pages' renderer at the next midnight in Santo Domingo, when announcements
 * start and end. Set again after every render (public-pages.ts), so it always aims at the content as
 * last rendered.
 */
import { santoDomingoInstant, santoDomingoToday } from '../../domain/forms/meeting.ts';
import type { Db } from '../db/index.ts';
import { getLogger } from '../log.ts';
import { nextPublishTime, publishDueArticles } from './articles.ts';

/** setTimeout's longest delay; a publication further ahead is waited for in steps. */
const MAX_TIMER_MS = 2_147_483_647;

/** The next midnight in Santo Domingo after `now`: announcements start and end with the day. */
export function nextSantoDomingoMidnight(now: Date): Date {
  const tomorrow = new Date(Date.parse(`${santoDomingoToday(now)}T12:00:00Z`) + 86_400_000)
    .toISOString()
    .slice(0, 10);
  return santoDomingoInstant(tomorrow, '00:00');
}

export class PublishTimer {
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  private readonly db: Db;
  /** Renders the pages (when the time came and nothing was published: a new day, or another process published). */
  private readonly render: () => Promise<void>;
  private readonly now: () => Date;

  constructor(db: Db, render: () => Promise<void>, now: () => Date) {
    this.db = db;
    this.render = render;
    this.now = now;
  }

  /** Aims at the next publication or midnight after `at`. */
  async arm(at: Date): Promise<void> {
    clearTimeout(this.timer);
    const next = await nextPublishTime(this.db, at);
    if (this.stopped) return;
    const midnight = nextSantoDomingoMidnight(at).getTime();
    const publication = next ? Date.parse(next) : Number.POSITIVE_INFINITY;
    const wait = Math.min(
      Math.max(Math.min(publication, midnight) - this.now().getTime(), 0) + 20,
      MAX_TIMER_MS,
    );
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      void (async () => {
        // Publishing is a change: its notice renders the pages.
        const due = publication <= this.now().getTime() ? await publishDueArticles(this.db, this.now()) : 0;
        // Another process may have marked them first, or it is a new day: render anyway (the time alone decides).
        if (due === 0) await this.render();
      })().catch((error: unknown) => getLogger().error({ err: error }, 'scheduled publication failed'));
    }, wait);
    this.timer.unref();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }
}
