/**
 * The values a form posted without JavaScript, so that a page showing errors gives back what the
 * visitor typed. None when nothing was posted, or when the body was refused as too large (it was never
 * read, and reading it now would cost what the refusal saved).
 */
export async function postedValues<F extends string>(
  request: Request,
  fields: readonly F[],
  errorCode?: string,
): Promise<Partial<Record<F, string>>> {
  const values: Partial<Record<F, string>> = {};
  if (request.method !== 'POST' || errorCode === 'CONTENT_TOO_LARGE') return values;
  const form = await request
    .clone()
    .formData()
    .catch(() => null);
  for (const field of fields) {
    const value = form?.get(field);
    if (typeof value === 'string') values[field] = value;
  }
  return values;
}

/** The line under a refused form's alert: what to fix, or what the failure means for the visitor. */
export function refusalDetail(
  error: { code: string; message: string } | undefined,
  isInputError: boolean,
  texts: { tooLarge: string; internal?: string },
): string | undefined {
  if (!error) return undefined;
  if (isInputError) return 'Revisa los campos marcados.';
  if (error.code === 'CONTENT_TOO_LARGE') return texts.tooLarge;
  if (error.code === 'INTERNAL_SERVER_ERROR') return texts.internal;
  return error.message;
}
