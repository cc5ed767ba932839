/**
 * Checks every public action runs before doing any work: the honeypot, the signed start time and the
 * time-to-submit, and the per-client rate limit (counted in the database, so it holds across server
 * processes, behind an in-memory first line that refuses a used-up key without it).
 */
import { ActionError, type ActionAPIContext } from 'astro:actions';
import {
  FORM_EXPIRED_MESSAGE,
  HONEYPOT_FIELD,
  MIN_SUBMIT_MS,
  STARTED_FIELD,
} from '../domain/forms/common.ts';
import { getConfig } from '../server/config.ts';
import { getDb } from '../server/db/index.ts';
import { checkFormStamp } from '../server/http/index.ts';
import { getLogger } from '../server/log.ts';
import { withinCounterLimit, withinRateLimit } from '../server/limits/index.ts';
import { clientNetworkOf } from '../server/http/index.ts';

export const TOO_FAST_MESSAGE = 'No pudimos procesar el envío. Espera unos segundos e inténtalo de nuevo.';
/**
 * A submission without its start time. The on-demand pages recognise it and show the form again with a
 * fresh one (a prerendered page's form, posted without JavaScript); elsewhere it reads as a refusal.
 */
export const STAMP_MISSING_MESSAGE = 'No pudimos confirmar el envío. Revisa tus datos y vuelve a enviarlo.';
export const RATE_LIMIT_MESSAGE =
  'Has enviado demasiadas solicitudes en poco tiempo. Espera unos minutos e inténtalo de nuevo.';

type AntiAbuseInput = { [HONEYPOT_FIELD]?: string | null; [STARTED_FIELD]?: string | null };

/**
 * Refuses what a person does not do: fill the hidden field, submit without the start time the server
 * signed (or with one forged), or submit within a second and a half of seeing the form. A start time
 * older than a day is refused too, asking to reload the page. Every refusal is logged with the client
 * network and the reason; nothing is stored. `checkTime` false skips only the time-to-submit.
 */
export function requireHuman(
  context: ActionAPIContext,
  input: AntiAbuseInput,
  action: string,
  checkTime = true,
): void {
  const refuse = (reason: string, message: string, extra: Record<string, unknown> = {}): never => {
    getLogger().warn({ action, network: clientNetworkOf(context), reason, ...extra }, 'submission refused');
    throw new ActionError({ code: 'BAD_REQUEST', message });
  };
  if (input[HONEYPOT_FIELD]) refuse('honeypot', TOO_FAST_MESSAGE);
  const now = Date.now();
  const stamp = checkFormStamp(input[STARTED_FIELD], now);
  if (!stamp.ok) {
    const message =
      stamp.reason === 'missing'
        ? STAMP_MISSING_MESSAGE
        : stamp.reason === 'expired'
          ? FORM_EXPIRED_MESSAGE
          : TOO_FAST_MESSAGE;
    refuse(`stamp-${stamp.reason}`, message);
  } else if (checkTime && now - stamp.time < MIN_SUBMIT_MS) {
    refuse('too-fast', TOO_FAST_MESSAGE, { elapsed: now - stamp.time });
  }
}

/** Counts this submission against the client's allowance (`FORM_RATE_LIMIT` × factor per 10 minutes). */
export async function requireWithinRateLimit(
  context: ActionAPIContext,
  action: string,
  factor = 1,
): Promise<void> {
  const config = getConfig();
  const network = clientNetworkOf(context);
  const result = await withinRateLimit(getDb(), `${action}:${network}`, config.FORM_RATE_LIMIT * factor);
  if (!result.allowed) {
    getLogger().warn(
      { action, network, reason: 'rate-limit', hits: result.hits, remembered: result.remembered },
      'submission refused',
    );
    throw new ActionError({ code: 'TOO_MANY_REQUESTS', message: RATE_LIMIT_MESSAGE });
  }
}

/** Follow-up look-ups per e-mail address per hour, whatever the network (issue 13, hole 5). */
export const TRACK_PER_EMAIL_PER_HOUR = 5;

/**
 * Counts a look-up against the e-mail it names: someone who knows a customer's address cannot try the
 * day's 9,000 numbers from many networks. Off with the other form limits (`FORM_RATE_LIMIT=0`).
 */
export async function requireWithinEmailLimit(email: string, action: string): Promise<void> {
  if (getConfig().FORM_RATE_LIMIT === 0) return;
  const address = email.trim().toLowerCase();
  // In limit_counters, whose windows may have any length (rate_limits' housekeeping assumes 10 minutes).
  const result = await withinCounterLimit(
    getDb(),
    `${action}:email:${address}`,
    TRACK_PER_EMAIL_PER_HOUR,
    60 * 60 * 1000,
  );
  if (!result.allowed) {
    getLogger().warn(
      { action, reason: 'email-limit', hits: result.hits, remembered: result.remembered },
      'submission refused',
    );
    throw new ActionError({ code: 'TOO_MANY_REQUESTS', message: RATE_LIMIT_MESSAGE });
  }
}

/**
 * The one way an action fails on an unexpected error: logged with its stack (pino's `err`) and the
 * action's name, answered with `message` in Spanish. An ActionError is already an answer: rethrown.
 */
export function actionFailed(error: unknown, action: string, message: string): never {
  if (error instanceof ActionError) throw error;
  getLogger().error({ err: error, action }, 'action failed');
  throw new ActionError({ code: 'INTERNAL_SERVER_ERROR', message });
}

/** Runs the work; anything that is not already an ActionError fails through {@link actionFailed}. */
export async function answerWith<T>(action: string, message: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    actionFailed(error, action, message);
  }
}
