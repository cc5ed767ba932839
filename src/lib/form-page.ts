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
