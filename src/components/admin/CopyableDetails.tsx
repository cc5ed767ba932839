import { useEffect, useRef, useState } from 'react';
import { useHydrated } from './hydrated';

export interface CopyableDetailsProps {
  /** Label and value of each detail, in order; an empty value shows '—' and has no button. */
  details: ReadonlyArray<readonly [string, string]>;
}

/** Copies `text` with the Clipboard API, or through a selected, off-screen textarea where it is missing. */
async function copyText(text: string): Promise<boolean> {
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // Refused (permissions, an unfocused document): try the old way below.
  }
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.left = '-9999px';
  document.body.append(area);
  area.select();
  try {
    return document.execCommand('copy');
  } catch {
    return false;
  } finally {
    area.remove();
  }
}

/**
 * A value that may be longer than its column (an e-mail, most often): it wraps after the '@' first and
 * breaks inside a word only where nothing else fits (issue 39 §2: the e-mail ran over the RNC beside it).
 */
function Breakable({ text }: { text: string }) {
  const at = text.indexOf('@');
  if (at <= 0) return text;
  return (
    <>
      {text.slice(0, at + 1)}
      <wbr />
      {text.slice(at + 1)}
    </>
  );
}

/**
 * The visitor's details in the incident page's header (issue 11): plain, selectable text on the
 * server; once hydrated, a small 'Copiar' button beside each value, so the page works without
 * JavaScript and the buttons only appear where they work. A live region says what was copied.
 */
export default function CopyableDetails({ details }: CopyableDetailsProps) {
  // False on the server and while hydrating, true after: the buttons appear only where they work.
  const ready = useHydrated();
  const [message, setMessage] = useState('');
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  async function copy(label: string, value: string) {
    const ok = await copyText(value);
    setMessage(ok ? `${label} copiado.` : `No se pudo copiar: selecciona el texto y cópialo a mano.`);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setMessage(''), 4000);
  }

  return (
    <div>
      <dl className="grid gap-x-6 gap-y-3 text-sm sm:grid-cols-2 lg:grid-cols-4">
        {details.map(([label, value]) => (
          <div key={label} className="min-w-0">
            <dt className="text-xs font-medium tracking-wide text-muted uppercase">{label}</dt>
            <dd className="flex flex-wrap items-center gap-2 text-ink">
              <span className="min-w-0 wrap-anywhere select-all" data-copy-value={label}>
                {value ? <Breakable text={value} /> : '—'}
              </span>
              {ready && value ? (
                <button
                  type="button"
                  onClick={() => void copy(label, value)}
                  aria-label={`Copiar ${label === label.toUpperCase() ? label : label.toLowerCase()}`}
                  className="rounded-button border border-line bg-white px-2 py-0.5 text-xs font-semibold text-brand-700 shadow-xs hover:bg-brand-50"
                >
                  Copiar
                </button>
              ) : null}
            </dd>
          </div>
        ))}
      </dl>
      <p aria-live="polite" className="mt-2 min-h-5 text-xs text-accent-700" data-testid="copiado">
        {message}
      </p>
    </div>
  );
}
