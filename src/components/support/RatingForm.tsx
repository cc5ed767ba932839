import { firstError, type FieldErrors } from '../../domain/forms/common';
import { RATING_COMMENT_MAX, RATING_WORDS } from '../../domain/forms/rating';
import { FORM_ACTIONS } from '../../routes';
import { AntiAbuseFields, FormAlert, primaryButtonClass, TextArea } from './FormField';
import { formatNumber } from '../../domain/numbers';

export interface RatingFormProps {
  /** The rating link's token: it names the resolution. */
  token: string;
  /** The rating selected: the link's `valor`, or what was posted. */
  valor?: string;
  comentario?: string;
  errors?: FieldErrors;
  /** A refusal that is not about a field (too fast, too many, already rated). */
  formError?: string;
  /** The signed time the form was rendered (the page is on-demand). */
  startedAt: string;
  /**
   * Where it posts: the rating page's `incidents.rate` (a rating link's token), or the follow-up page's
   * `incidents.rateFollowUp` (issue 39 §11: `token` is then the follow-up link's).
   */
  action?: string;
}

/**
 * '¿Cómo te atendimos?' on /soporte/valoracion (issue 22): a radio group 1 to 5 (native radios in a
 * fieldset: arrow keys, screen readers and no JavaScript all work), an optional comment and 'Enviar'.
 * Plain HTML posted to the page itself (`incidents.rate`), no island.
 */
export default function RatingForm({
  token,
  valor,
  comentario = '',
  errors,
  formError,
  startedAt,
  action = FORM_ACTIONS.incidentRate,
}: RatingFormProps) {
  const valorError = firstError(errors, 'valor');
  return (
    <form method="post" action={action} className="relative flex flex-col gap-6">
      <input type="hidden" name="token" value={token} />
      <fieldset aria-describedby={valorError ? 'valoracion-error' : 'valoracion-ayuda'}>
        <legend className="text-base font-semibold text-brand-900">¿Cómo te atendimos?</legend>
        <p id="valoracion-ayuda" className="mt-1 text-sm text-muted">
          De 1 (muy mal) a 5 (muy bien).
        </p>
        <div className="mt-3 grid grid-cols-5 gap-2">
          {RATING_WORDS.map((word, index) => {
            const value = String(index + 1);
            return (
              <label
                key={value}
                className="flex min-h-11 cursor-pointer flex-col items-center justify-center gap-1 rounded-button border border-line bg-white px-1 py-2 text-center text-ink hover:border-brand-500 has-checked:border-brand-900 has-checked:bg-brand-50 has-focus-visible:outline-2 has-focus-visible:outline-offset-2 has-focus-visible:outline-brand-600"
              >
                <input
                  type="radio"
                  name="valor"
                  value={value}
                  defaultChecked={valor === value}
                  required
                  className="size-5 accent-brand-900"
                />
                <span className="text-lg font-bold">{value}</span>
                <span className="text-xs leading-tight text-muted">{word}</span>
              </label>
            );
          })}
        </div>
        {valorError ? (
          <p id="valoracion-error" className="mt-2 text-sm font-medium text-red-700">
            {valorError}
          </p>
        ) : null}
      </fieldset>
      <TextArea
        id="valoracion-comentario"
        name="comentario"
        label="Comentario"
        optionalMark
        hint={`Cuéntanos qué salió bien o qué podemos mejorar. Hasta ${formatNumber(RATING_COMMENT_MAX)} caracteres.`}
        rows={4}
        maxLength={RATING_COMMENT_MAX}
        defaultValue={comentario}
        error={firstError(errors, 'comentario')}
      />
      <AntiAbuseFields startedAt={startedAt} />
      <FormAlert>{formError}</FormAlert>
      <div>
        <button type="submit" className={`${primaryButtonClass} w-full sm:w-auto`}>
          Enviar
        </button>
      </div>
    </form>
  );
}
