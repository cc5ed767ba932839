/**
 * The what's-new toast appears bottom-right on a visitor's first page loads. Tests that are not
 * about it can mark every announcement as seen, so it never covers what they click.
 */
import type { BrowserContext } from 'playwright-core';
import { ANNOUNCEMENTS, WHATSNEW_KEY_PREFIX } from '../../src/content/announcements.ts';

export async function silenceWhatsNew(context: BrowserContext): Promise<void> {
  await context.addInitScript(
    ({ prefix, ids }) => {
      for (const id of ids) localStorage.setItem(`${prefix}${id}`, 'visto');
    },
    { prefix: WHATSNEW_KEY_PREFIX, ids: ANNOUNCEMENTS.map((item) => item.id) },
  );
}
