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

/**
 * A field's `aria-describedby`: its help (`{id}-ayuda`) when it has one, its Spanish message when
 * refused (`{id}-error`), or nothing when it has neither.
 */
export function describedBy(id: string, field: { help?: unknown; error?: unknown }): string | undefined {
  return (
    [field.help ? `${id}-ayuda` : '', field.error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined
  );
}
