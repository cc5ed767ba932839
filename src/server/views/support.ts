/**
 * What the public follow-up page shows when opened with a mail's token: the incident with its
 * conversation, or why not. The token's page is limited per client network like the look-up (a wrong
 * token costs a try too).
 */
import { getConfig } from '../config.ts';
import { getDb } from '../db/index.ts';
import { followUpByToken, type FollowUp } from '../incidents/follow-up.ts';
import { withinRateLimit } from '../limits/first-line.ts';

export async function followUpView(
  token: string,
  network: string,
): Promise<{ opened: FollowUp | null; limited: boolean }> {
  const limit = await withinRateLimit(getDb(), `incidents.token:${network}`, getConfig().FORM_RATE_LIMIT * 2);
  return { opened: limit.allowed ? await followUpByToken(getDb(), token) : null, limited: !limit.allowed };
}
