import type { InputHTMLAttributes, ReactNode, TextareaHTMLAttributes } from 'react';
import {
  FILE_ACCEPT,
  FILES_FIELD,
  FILES_HINT,
  fileSizeText,
  KEPT_FIELD,
  type KeptFile,
} from '../../domain/attachments';

export const inputClass =
  'block w-full rounded-button border border-line bg-white px-3.5 py-2.5 text-base text-ink shadow-xs transition-colors placeholder:text-slate-400 hover:border-slate-300 focus:border-brand-500 aria-[invalid=true]:border-red-600 aria-[invalid=true]:focus-visible:outline-red-600';

export const primaryButtonClass =
  'inline-flex min-h-11 items-center justify-center gap-2 rounded-button bg-brand-900 px-5 py-2.5 font-semibold text-white shadow-sm transition-colors hover:bg-brand-800 disabled:cursor-wait disabled:opacity-70';

interface FieldFrameProps {
  id: string;
  label: string;
  hint?: string;
  error?: string;
  optionalMark?: boolean;
  children: ReactNode;
}

/** Label, control, hint and the server's message for the field (linked with aria-describedby). */
function FieldFrame({ id, label, hint, error, optionalMark, children }: FieldFrameProps) {
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={id} className="text-sm font-semibold text-brand-900">
        {label}
        {optionalMark ? <span className="ml-1 font-normal text-muted">(opcional)</span> : null}
      </label>
      {children}
      {hint ? (
        <p id={`${id}-hint`} className="text-sm text-muted">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className="text-sm font-medium text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}

function describedBy(id: string, hint?: string, error?: string): string | undefined {
  const ids = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean);
  return ids.length ? ids.join(' ') : undefined;
}

type InputProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> & {
  id: string;
  label: string;
  hint?: string;
  error?: string;
  optionalMark?: boolean;
};

export function TextField({ id, label, hint, error, optionalMark, ...input }: InputProps) {
  return (
    <FieldFrame id={id} label={label} hint={hint} error={error} optionalMark={optionalMark}>
      <input
        id={id}
        className={inputClass}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, hint, error)}
        {...input}
      />
    </FieldFrame>
  );
}

type TextAreaProps = Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'id'> & {
  id: string;
  label: string;
  hint?: string;
  error?: string;
  optionalMark?: boolean;
};

export function TextArea({ id, label, hint, error, optionalMark, ...textarea }: TextAreaProps) {
  return (
    <FieldFrame id={id} label={label} hint={hint} error={error} optionalMark={optionalMark}>
      <textarea
        id={id}
        className={`${inputClass} min-h-32 resize-y`}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, hint, error)}
        {...textarea}
      />
    </FieldFrame>
  );
}

/**
 * 'Adjuntar archivos' (issue 21): several files at once, up to 5, checked again by the server by their
 * content. It must come after the anti-abuse fields in the form: the server reads those before any file.
 */
export function FileField({
  id,
  error,
  hint = FILES_HINT,
  kept = [],
}: {
  id: string;
  error?: string;
  hint?: string;
  kept?: readonly KeptFile[];
}) {
  return (
    <FieldFrame id={id} label="Adjuntar archivos" hint={hint} error={error} optionalMark>
      {kept.length ? (
        <fieldset className="rounded-button border border-line bg-surface px-3 py-2">
          <legend className="px-1 text-sm font-semibold text-brand-900">Archivos que ya elegiste</legend>
          <ul className="flex flex-col gap-1.5">
            {kept.map((file) => (
              <li key={file.ref}>
                <label className="flex min-h-11 items-center gap-2 text-sm text-ink">
                  <input
                    type="checkbox"
                    name={KEPT_FIELD}
                    value={file.ref}
                    defaultChecked
                    className="size-5 shrink-0 accent-brand-900"
                  />
                  <span className="min-w-0 break-all">
                    Enviar «{file.nombre}» <span className="text-muted">({fileSizeText(file.tamano)})</span>
                  </span>
                </label>
              </li>
            ))}
          </ul>
        </fieldset>
      ) : null}
      <input
        id={id}
        type="file"
        name={FILES_FIELD}
        multiple
        accept={FILE_ACCEPT}
        className="block w-full rounded-button border border-dashed border-line bg-white px-3 py-2.5 text-sm text-ink file:mr-3 file:min-h-10 file:rounded-button file:border-0 file:bg-brand-50 file:px-4 file:py-2 file:font-semibold file:text-brand-900 hover:border-brand-500 hover:file:bg-brand-100 aria-[invalid=true]:border-red-600"
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, hint, error)}
      />
    </FieldFrame>
  );
}

/** The hidden anti-abuse fields: a honeypot people never see, and when the form was shown (signed by the server). */
export function AntiAbuseFields({ startedAt }: { startedAt?: string }) {
  return (
    <>
      <div aria-hidden="true" className="absolute -left-[9999px] h-px w-px overflow-hidden">
        <label>
          No completes este campo
          <input type="text" name="website" tabIndex={-1} autoComplete="off" defaultValue="" />
        </label>
      </div>
      <input type="hidden" name="startedAt" value={startedAt ?? ''} />
    </>
  );
}

/** A small spinner for the sending state (hidden from assistive tech; the label says 'Enviando…'). */
export function Spinner() {
  return (
    <svg aria-hidden="true" viewBox="0 0 24 24" className="size-4 animate-spin motion-reduce:animate-none">
      <circle cx="12" cy="12" r="9" fill="none" stroke="currentColor" strokeOpacity="0.3" strokeWidth="3" />
      <path
        d="M21 12a9 9 0 0 0-9-9"
        fill="none"
        stroke="currentColor"
        strokeWidth="3"
        strokeLinecap="round"
      />
    </svg>
  );
}

/** A form's refusal above its buttons (the public forms): announced at once, nothing when there is none. */
export function FormAlert({ children }: { children: ReactNode }) {
  if (!children) return null;
  return (
    <div
      role="alert"
      className="rounded-button border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800"
    >
      {children}
    </div>
  );
}
