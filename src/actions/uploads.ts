/**
 * Forms with files (issue 21, "Attachments"; docs/decisions/0015). Astro reads an action's body whole
 * (`request.formData()`), so a form posted with files is read here first, in the middleware, as it
 * streams in (src/server/attachments/upload.ts): the public forms' anti-abuse checks and per-network
 * limit, and the daily public total, run before the first byte of a file is kept. The action then gets
 * the text fields as an ordinary form (the request is replaced by one that carries only them) and the
 * files in `locals.uploads`, and calls {@link filesOfSubmission}.
 */
import type { ActionAPIContext } from 'astro:actions';
import type { APIContext } from 'astro';
import {
  ATTACHMENT_MESSAGES,
  FILES_FIELD,
  KEPT_FIELD,
  MAX_FILES,
  MAX_SUBMISSION_BYTES,
  UPLOAD_ACTIONS,
} from '../domain/attachments.ts';
import { getAuthSecret } from '../server/auth/index.ts';
import { keepFiles, keptFilesOf } from '../server/attachments/index.ts';
import { ACTIONS_PREFIX } from '../routes.ts';
import { getConfig } from '../server/config.ts';
import { getDb } from '../server/db/index.ts';
import { storeBlobs } from '../server/attachments/index.ts';
import { UploadPace } from '../server/attachments/index.ts';
import { prepareFiles, type PreparedFile } from '../server/attachments/index.ts';
import { publicUploadFits, reservePublicUpload } from '../server/attachments/index.ts';
import { isMultipart, readUploadForm } from '../server/attachments/index.ts';
import { getLogger } from '../server/log.ts';
import { clientNetworkOf } from '../server/http/index.ts';
import { refuse } from './refusal.ts';
import { requireHuman, requireWithinRateLimit } from './guards.ts';

/** What the middleware read of a form with files, for its action. */
export interface Uploads {
  files: import('../server/attachments/files.ts').IncomingFile[];
  problem: 'too-many' | 'total-too-large' | 'malformed' | null;
  /** The anti-abuse check or a limit refused before any file was kept. */
  refusal: unknown;
  /** The per-network limit was counted already (the action must not count it twice). */
  rateCounted: boolean;
  /** References to the files an earlier refused try kept (src/server/attachments/kept.ts), sent back. */
  keptRefs: string[];
}

/** The action a request names, by its RPC path or a page form's `?_action=`. */
export function actionNameOf(url: URL): string | null {
  if (url.pathname.startsWith(ACTIONS_PREFIX))
    return url.pathname.slice(ACTIONS_PREFIX.length).replace(/\/$/, '');
  return url.searchParams.get('_action');
}

/** Whether this request is a form with files for an action that takes them (the choke point's larger limit). */
export function isUploadAction(name: string | null): boolean {
  return name !== null && Object.hasOwn(UPLOAD_ACTIONS, name);
}

let pace: UploadPace | undefined;
/** The process's one pace for posted files (`UPLOAD_MB_PER_SECOND`). */
const uploadPace = () => (pace ??= new UploadPace(getConfig().UPLOAD_MB_PER_SECOND));

/**
 * The middleware's part: a multipart POST to an action that takes files is read here (see the
 * module's comment); every other request is left as it is.
 */
export async function takeUploads(context: APIContext): Promise<void> {
  const name = actionNameOf(context.url);
  if (
    context.request.method !== 'POST' ||
    !isUploadAction(name) ||
    !isMultipart(context.request.headers.get('content-type'))
  )
    return;
  const kind = UPLOAD_ACTIONS[name!];
  const uploads: Uploads = { files: [], problem: null, refusal: undefined, rateCounted: false, keptRefs: [] };
  const form = await readUploadForm(
    context.request,
    async (fields) => {
      if (kind !== 'public') return;
      const actionContext = context as unknown as ActionAPIContext;
      requireHuman(actionContext, Object.fromEntries(fields), name!);
      await requireWithinRateLimit(actionContext, name!);
      uploads.rateCounted = true;
      const announced = Number(context.request.headers.get('content-length') ?? 0);
      if (!(await publicUploadFits(getDb(), announced, getConfig().PUBLIC_UPLOAD_DAILY_MB))) {
        getLogger().warn(
          { action: name, network: clientNetworkOf(actionContext), reason: 'upload-daily-total' },
          'submission refused',
        );
        refuse('TOO_MANY_REQUESTS', ATTACHMENT_MESSAGES.dailyBudget, {
          [FILES_FIELD]: ATTACHMENT_MESSAGES.dailyBudget,
        });
      }
    },
    uploadPace(),
  );
  Object.assign(uploads, {
    files: form.files,
    problem: form.problem,
    refusal: form.refusal,
    keptRefs: form.fields.getAll(KEPT_FIELD).slice(0, MAX_FILES),
  });
  form.fields.delete(KEPT_FIELD);
  context.locals.uploads = uploads;
  const original = context.request;
  const headers = new Headers(original.headers);
  // The page renders from the original request, whose body is now read: nothing may try to read it
  // again as a form (@astrojs/react looks for a React form action's state in any form post's body).
  try {
    original.headers.delete('content-type');
  } catch {
    // Headers a server made immutable: then nothing of ours reads them as a form either.
  }
  headers.delete('content-length');
  headers.set('content-type', 'application/x-www-form-urlencoded;charset=UTF-8');
  // The action reads its text fields from the request, as from any form: only they are left in it.
  context.request = new Request(original.url, { method: 'POST', headers, body: form.fields.toString() });
}

/**
 * For an action that takes files, first of all: the refusal of the checks that ran before any file was
 * kept (so that they are not run, and logged, twice).
 */
export function throwUploadRefusal(context: ActionAPIContext): void {
  const refusal = context.locals.uploads?.refusal;
  if (refusal !== undefined) throw refusal;
}

/**
 * For an action that takes files: the files of this submission, sniffed and cleaned, with those an
 * earlier refused try kept; a refusal (a Spanish message naming each file at fault, under the field
 * 'archivos') when one is not allowed or a limit was passed. On such a refusal of a page's form, the
 * good files are kept (kept.ts) and listed in `locals.keptFiles`, so the page sends them back with the
 * text typed; an island keeps them in its own file input. Public submissions count their new bytes
 * against the daily total once, when they are first stored.
 */
export async function filesOfSubmission(context: ActionAPIContext, action: string): Promise<PreparedFile[]> {
  const uploads = context.locals.uploads;
  if (!uploads) return [];
  if (uploads.refusal !== undefined) throw uploads.refusal;
  if (uploads.problem === 'too-many')
    refuse('BAD_REQUEST', ATTACHMENT_MESSAGES.tooMany, { [FILES_FIELD]: ATTACHMENT_MESSAGES.tooMany });
  if (uploads.problem === 'total-too-large')
    refuse('BAD_REQUEST', ATTACHMENT_MESSAGES.totalTooLarge, {
      [FILES_FIELD]: ATTACHMENT_MESSAGES.totalTooLarge,
    });
  if (uploads.problem === 'malformed')
    refuse('BAD_REQUEST', 'No pudimos leer los archivos enviados. Inténtalo de nuevo.');
  const secret = getAuthSecret();
  const kept = uploads.keptRefs.length ? await keptFilesOf(getDb(), uploads.keptRefs, action, secret) : [];
  const { prepared, refused } = await prepareFiles(uploads.files);
  const all = [...kept, ...prepared];
  if (all.length > MAX_FILES)
    refuse('BAD_REQUEST', ATTACHMENT_MESSAGES.tooMany, { [FILES_FIELD]: ATTACHMENT_MESSAGES.tooMany });
  if (all.reduce((sum, file) => sum + file.data.byteLength, 0) > MAX_SUBMISSION_BYTES)
    refuse('BAD_REQUEST', ATTACHMENT_MESSAGES.totalTooLarge, {
      [FILES_FIELD]: ATTACHMENT_MESSAGES.totalTooLarge,
    });
  const countNew = async () => {
    if (UPLOAD_ACTIONS[action] !== 'public' || !prepared.length) return;
    const bytes = prepared.reduce((sum, file) => sum + file.data.byteLength, 0);
    if (!(await reservePublicUpload(getDb(), bytes, getConfig().PUBLIC_UPLOAD_DAILY_MB)))
      refuse('TOO_MANY_REQUESTS', ATTACHMENT_MESSAGES.dailyBudget, {
        [FILES_FIELD]: ATTACHMENT_MESSAGES.dailyBudget,
      });
  };
  if (refused.length) {
    getLogger().info({ action, refused: refused.map((file) => file.reason) }, 'files refused');
    const message = refused.map((file) => file.message).join(' ');
    // A page's form (not an island's call): the good files wait for the next try.
    if (all.length && !context.url.pathname.startsWith(ACTIONS_PREFIX)) {
      await countNew();
      context.locals.keptFiles = await keepFiles(getDb(), all, action, secret);
    }
    refuse('BAD_REQUEST', message, { [FILES_FIELD]: message });
  }
  await countNew();
  // Their bytes stored now, before the action's transaction (off this thread on SQLite: blob-store.ts).
  return storeBlobs(getDb(), all);
}
