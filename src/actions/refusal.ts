/**
 * A refusal a handler expects, thrown as an ActionError with each field's message: its own module so
 * that the form plumbing (form.ts) and the files read before an action runs (uploads.ts), which
 * refuse alike, import it from below instead of from each other (issue 40, the import circle).
 * form.ts hands both on; every handler keeps importing them from there.
 */
import { ActionError, type ActionErrorCode } from 'astro:actions';

/**
 * A refusal a handler expects (a wrong password, a record gone, a stale edit): the status by `code`,
 * the form's Spanish message, and the message of each field at fault. Over `/_actions/` it answers as
 * any ActionError (with `fields`); posted from a page, the page shows it.
 */
export class FormRefusal extends ActionError {
  fields: Record<string, string>;
  constructor(code: ActionErrorCode, message: string, fields: Record<string, string | undefined> = {}) {
    super({ code, message });
    this.fields = Object.fromEntries(
      Object.entries(fields).filter((entry): entry is [string, string] => Boolean(entry[1])),
    );
  }
}

/** Throws the refusal: `refuse('NOT_FOUND', 'El cliente no existe.')`. */
export function refuse(
  code: ActionErrorCode,
  message: string,
  fields?: Record<string, string | undefined>,
): never {
  throw new FormRefusal(code, message, fields);
}
