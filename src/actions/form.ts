/**
 * The one way a form reaches the server (docs/decisions/0012-staff-forms-as-actions.md): every write is
 * an Astro Action with `accept: 'form'`; the middleware runs a form-posted action itself
 * ({@link runFormAction}, Astro's `getActionContext`), so that
 * - a success whose data is `{ redirect }` ({@link seeOtherTo}) answers 303 there (post/redirect/get);
 * - any other outcome renders the page, which reads it with `Astro.getActionResult()` and, for a
 *   refusal, {@link refusalOf}: the status, the Spanish message of each field and what was typed
 *   (a public form shown again: {@link formOutcomeOf}, its field messages and its alert).
 * The typed values travel with the action's outcome (`locals.form`, written here), never by a page
 * reading the body; secret fields (passwords, codes) are never given back.
 *
 * Also here: reading a form's fields ({@link readForm}) and zod's issues as one message per field
 * ({@link fieldErrors}), which every handler uses.
 */
import { ACTION_QUERY_PARAMS, getActionContext, isInputError, type ActionError } from 'astro:actions';
import type { APIContext, AstroGlobal, MiddlewareNext } from 'astro';
import { fieldMessages } from '../domain/attachments.ts';
import type { FieldErrors as FieldMessages } from '../domain/forms/common.ts';
import { ROUTES } from '../routes.ts';
import { seeOther } from '../server/http/index.ts';
import { echoedValues, fieldErrors } from './form-fields.ts';
import { FormRefusal } from './refusal.ts';
import { takeUploads } from './uploads.ts';

export { field, fieldErrors, NEVER_ECHOED, readForm, echoedValues, type FieldErrors } from './form-fields.ts';
export { FormRefusal, refuse } from './refusal.ts';

/** A write's success that answers with a redirect (303) when posted from a page. */
export interface SeeOtherTo {
  redirect: string;
}

/** The data of a success that sends the browser to `location` (a path of ours). */
export const seeOtherTo = (location: string): SeeOtherTo => ({ redirect: location });

const isSeeOther = (data: unknown): data is SeeOtherTo =>
  typeof data === 'object' &&
  data !== null &&
  typeof (data as SeeOtherTo).redirect === 'string' &&
  (data as SeeOtherTo).redirect.startsWith('/');

/**
 * Cookies a handler must send with its answer (Better Auth's `Set-Cookie` lines: a new session, a
 * session replaced): the middleware adds them to whatever answers the request, a redirect or a page.
 */
export function sendCookies(context: { locals: App.Locals }, setCookies: readonly string[]): void {
  (context.locals.setCookies ??= []).push(...setCookies);
}

/** The text fields posted, without the secret ones: what a page shows again. */
async function typedValues(request: Request): Promise<Record<string, string>> {
  return echoedValues(
    await request
      .clone()
      .formData()
      .catch(() => null),
  );
}

function withCookies(response: Response, setCookies: readonly string[] | undefined): Response {
  if (!setCookies?.length) return response;
  for (const cookie of setCookies) response.headers.append('Set-Cookie', cookie);
  return response;
}

/**
 * The action of a form posted to the sign-in page: its forms post to the page's own path (the route
 * scripts and operators sign in at), `?paso=codigo` for the second step.
 */
export function signInActionOf(url: URL): string {
  return url.searchParams.get('paso') === 'codigo' ? 'login.code' : 'login.password';
}

/**
 * The middleware's part: an action posted from a page's form (`?_action=NAME`) runs here, once; a
 * redirecting success answers 303; otherwise the page renders with the outcome and, in `locals.form`,
 * the values typed and the message of each field. Every other request passes through.
 */
export async function runFormAction(context: APIContext, next: MiddlewareNext): Promise<Response> {
  if (context.isPrerendered) return next();
  // The sign-in page's forms post to its own path: the step names their action.
  if (
    context.request.method === 'POST' &&
    context.url.pathname === ROUTES.adminLogin &&
    !context.url.searchParams.has(ACTION_QUERY_PARAMS.actionName)
  )
    context.url.searchParams.set(ACTION_QUERY_PARAMS.actionName, signInActionOf(context.url));
  // A form with files is read here as it streams in, before the action (src/actions/uploads.ts).
  await takeUploads(context);
  const { action, setActionResult, serializeActionResult } = getActionContext(context);
  // Called by an island with files: answered here, as Astro's action route would, from the request
  // that now carries the text fields only.
  if (action?.calledFrom === 'rpc' && context.locals.uploads)
    return rpcAnswer(serializeActionResult(await action.handler()));
  if (action?.calledFrom !== 'form') return withCookies(await next(), context.locals.setCookies);
  const result = await action.handler();
  if (!result.error && isSeeOther(result.data))
    return seeOther(result.data.redirect, context.locals.setCookies);
  setActionResult(action.name, serializeActionResult(result));
  const error = result.error;
  const errors: Record<string, string> =
    error instanceof FormRefusal
      ? error.fields
      : error && 'fields' in error && error.fields && typeof error.fields === 'object'
        ? (fieldErrors(error.fields as Record<string, string[]>) as Record<string, string>)
        : {};
  // A body refused as too large was never read: reading it now would cost what the refusal saved.
  const values = error?.code === 'CONTENT_TOO_LARGE' ? {} : await typedValues(context.request);
  context.locals.form = { action: action.name, values, errors };
  return withCookies(await next(), context.locals.setCookies);
}

/** An action's result as Astro's RPC route answers it (astro/dist/actions/runtime/entrypoints/route.js). */
function rpcAnswer(
  serialized: ReturnType<ReturnType<typeof getActionContext>['serializeActionResult']>,
): Response {
  if (serialized.type === 'empty') return new Response(null, { status: serialized.status });
  return new Response(serialized.body, {
    status: serialized.status,
    headers: { 'Content-Type': serialized.contentType },
  });
}

type ActionResultReader = Pick<AstroGlobal, 'getActionResult' | 'locals'>;
type AnyAction = Parameters<AstroGlobal['getActionResult']>[0];

/** A refused form as its page shows it again. */
export interface RefusalView {
  /** The answer's status: 400 (a field), 404 (the record is gone), 409 (a conflict), 429, 500… */
  status: number;
  code: string;
  /** The form's own Spanish message (for a refusal by field, Astro's technical text: use the fields). */
  message: string;
  /** The Spanish message of each field at fault. */
  errors: Record<string, string>;
  /** Every text field as typed, the secret ones excepted. */
  values: Record<string, string>;
  /** Refused by the input schema (the fields say what), not by the handler. */
  input: boolean;
}

/** For a page: how `action`, posted from it, was refused; undefined when it was not posted or succeeded. */
export function refusalOf(astro: ActionResultReader, action: AnyAction): RefusalView | undefined {
  const error = astro.getActionResult(action)?.error;
  if (!error) return undefined;
  const form = astro.locals.form;
  return {
    status: error.status,
    code: error.code,
    message: error.message,
    errors: form?.errors ?? {},
    values: form?.values ?? {},
    input: isInputError(error),
  };
}

/** For a page: the values posted with `action` (a success that renders, or a refusal), only these fields. */
export function postedValuesOf<F extends string>(
  astro: ActionResultReader,
  action: AnyAction,
  names: readonly F[],
): Partial<Record<F, string>> {
  if (!astro.getActionResult(action)) return {};
  const posted = astro.locals.form?.values ?? {};
  return Object.fromEntries(
    names.filter((name) => name in posted).map((name) => [name, posted[name]]),
  ) as Partial<Record<F, string>>;
}

/** A public form as its page renders it again (the forms posted without an island). */
export interface FormOutcome {
  /** The action's refusal, undefined when it was not posted or succeeded. */
  error: ActionError | undefined;
  /** The Spanish messages of each field at fault: the input schema's, or the handler's refusal's. */
  errors: FieldMessages | undefined;
  /** The message of a refusal that is not about a field (too fast, too many, expired…). */
  formError: string | undefined;
}

/**
 * For a page that shows its own form again (/soporte/nueva, /soporte/seguimiento,
 * /soporte/valoracion): what the islands' `useActionForm` keeps as state, read from the posted outcome.
 */
export function formOutcomeOf(astro: ActionResultReader, action: AnyAction): FormOutcome {
  const error: ActionError | undefined = astro.getActionResult(action)?.error;
  if (!error) return { error, errors: undefined, formError: undefined };
  if (isInputError(error)) return { error, errors: error.fields, formError: undefined };
  return { error, errors: fieldMessages(refusalOf(astro, action)?.errors), formError: error.message };
}
