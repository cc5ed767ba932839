/**
 * The help centre's words (issue 23): '¿Te resultó útil?' at the end of each help article and what
 * follows a vote, shared by the article's page, its inline script and the endpoint that counts.
 */
export const HELP_VOTE = {
  question: '¿Te resultó útil?',
  yes: 'Sí',
  no: 'No',
  thanks: '¡Gracias por tu opinión!',
  /** The element of the thank-you, and the fragment the form's answer returns to. */
  anchor: 'gracias',
} as const;

/** The support dialog's heading over its suggestions. */
export const HELP_SUGGESTIONS_TITLE = '¿Te sirve alguno de estos artículos?';
