/**
 * Building blocks shared by the public form schemas. Written with `zod/mini` so that an island
 * importing a schema adds a few kilobytes, not the whole of zod. No server imports here: the same
 * module runs in the browser (islands) and on the server (actions).
 */
import * as z from 'zod/mini';
import { formatNumber } from '../numbers.ts';

/** Longest accepted value of a long text (problem, message) and of every other field. */
export const LONG_TEXT_MAX = 5000;
export const SHORT_TEXT_MAX = 200;

/** Honeypot: a field people never see; bots that fill every input fill it too. */
export const HONEYPOT_FIELD = 'website';
/**
 * When the form was shown, signed by the server (`"<ms>.<hmac>"`, src/server/http/form-stamp.ts): on-demand
 * pages render it, islands fetch it (`ROUTES.formStamp`) when the form is first used. Required.
 */
export const STARTED_FIELD = 'startedAt';
/** Submissions sooner than this after the form was shown are treated as automated. */
export const MIN_SUBMIT_MS = 1500;
/** A form shown more than a day ago (its signed start time expired): the visitor reloads the page. */
export const FORM_EXPIRED_MESSAGE = 'El formulario caducó. Recarga la página e inténtalo de nuevo.';
/**
 * A form that came without its start time (a prerendered page, without JavaScript): the page shows it
 * again with the values typed and a fresh start time, and asks to send it once more. Nothing is stored.
 */
export const FORM_CONFIRM_MESSAGE =
  'Para completar el envío, revisa tus datos y pulsa de nuevo el botón de enviar.';

// C0 and C1 control characters except tab and line feed; carriage returns are normalised first.
// eslint-disable-next-line no-control-regex
const CONTROL_CHARS = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/g;

/** Normalises line breaks, removes control characters and trims. Multi-line text keeps its lines. */
export function cleanText(value: string, multiline: boolean): string {
  let text = value.replace(/\r\n?/g, '\n');
  if (!multiline) text = text.replace(/[\n\t]+/g, ' ');
  return text.replace(CONTROL_CHARS, '').trim();
}

interface FieldRules {
  /** Spanish label used in messages, e.g. 'El nombre'. */
  label: string;
  max: number;
  multiline?: boolean;
  /** Message when the cleaned value is empty; omit for optional fields. */
  required?: string;
  /** Optional extra check: returns a message when the value is not acceptable. */
  check?: (value: string) => string | undefined;
}

/**
 * A text field as it arrives from a form: missing or empty becomes '', control characters are
 * stripped, then the rules are checked in order and only the first failing one is reported.
 */
export function textField(rules: FieldRules) {
  return z.pipe(
    z.optional(z.nullable(z.string())),
    z.transform((raw: string | null | undefined, ctx) => {
      const value = cleanText(raw ?? '', rules.multiline ?? false);
      let message: string | undefined;
      if (rules.required && value === '') message = rules.required;
      else if (value.length > rules.max)
        message = `${rules.label} admite como máximo ${formatNumber(rules.max)} caracteres.`;
      else if (value !== '' && rules.check) message = rules.check(value);
      if (message) ctx.issues.push({ code: 'custom', message, input: raw });
      return value;
    }),
  );
}

/** The two anti-abuse fields every public form carries. */
export const antiAbuseFields = {
  [HONEYPOT_FIELD]: z.optional(z.nullable(z.string())),
  [STARTED_FIELD]: z.optional(z.nullable(z.string())),
};

/** Field name -> messages, as Astro's `ActionInputError.fields` and our pages use it. */
export type FieldErrors = Partial<Record<string, string[] | undefined>>;

/** The first message of a field, if any. */
/**
 * zod's issues as one message per top-level field, the first given (issues about no field are left
 * out): how every server-side form check names what is wrong (src/actions/form-fields.ts).
 */
export function firstMessagePerField<F extends string = string>(
  issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }>,
): Partial<Record<F, string>> {
  const errors: Record<string, string> = {};
  for (const issue of issues) {
    const key = issue.path[0];
    if (key !== undefined) errors[String(key)] ??= issue.message;
  }
  return errors as Partial<Record<F, string>>;
}

export function firstError(errors: FieldErrors | undefined, field: string): string | undefined {
  return errors?.[field]?.[0];
}

/**
 * Runs a form schema on the submitted values in the browser, before any request: the visitor sees
 * the same messages the server would give, without a round trip. Null when the values are valid.
 */
export function validateForm(schema: z.ZodMiniType, form: FormData): FieldErrors | null {
  const values: Record<string, string> = {};
  for (const [key, value] of form.entries()) if (typeof value === 'string') values[key] = value;
  const result = z.safeParse(schema, values);
  if (result.success) return null;
  const errors: Record<string, string[]> = {};
  for (const issue of result.error.issues) {
    const field = String(issue.path[0] ?? '');
    (errors[field] ??= []).push(issue.message);
  }
  return errors;
}
