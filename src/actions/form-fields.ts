/**
 * Reading a posted form and naming what is wrong with it, field by field: the pure half of
 * src/actions/form.ts (no Astro), shared by every action and tested on its own
 * (tests/unit/form-fields.test.ts).
 */
import { firstMessagePerField } from '../domain/forms/common.ts';

/** One message per field, the first zod gave; the form's own message under no field. */
export type FieldErrors<F extends string = string> = Partial<Record<F, string>>;

/** The fields a refused form never shows again, whatever the action: passwords, codes, the carried CSV. */
export const NEVER_ECHOED: ReadonlySet<string> = new Set([
  'password',
  'actual',
  'nueva',
  'repeticion',
  'codigo',
  'contenido',
  'firma',
]);

/** One text field of a form: '' when missing or a file. */
export function field(form: FormData | null | undefined, name: string): string {
  const value = form?.get(name);
  return typeof value === 'string' ? value : '';
}

/** These text fields of a form, '' where missing. */
export function readForm<F extends string>(
  form: FormData | null | undefined,
  names: readonly F[],
): Record<F, string> {
  return Object.fromEntries(names.map((name) => [name, field(form, name)])) as Record<F, string>;
}

/** zod's issues (or an Astro input error's fields) as one message per top-level field, the first given. */
export function fieldErrors<F extends string = string>(
  issues:
    | ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }>
    | Record<string, string[] | undefined>,
): FieldErrors<F> {
  if (Array.isArray(issues)) return firstMessagePerField<F>(issues);
  const errors: Record<string, string> = {};
  for (const [key, messages] of Object.entries(issues as Record<string, string[] | undefined>))
    if (messages?.[0]) errors[key] = messages[0];
  return errors as FieldErrors<F>;
}

/** Every text field of a form as typed, the secret ones ({@link NEVER_ECHOED}) and files left out: what a refused form shows again. */
export function echoedValues(form: FormData | null | undefined): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [name, value] of form?.entries() ?? []) {
    if (typeof value === 'string' && !NEVER_ECHOED.has(name) && !(name in values)) values[name] = value;
  }
  return values;
}
