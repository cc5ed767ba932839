import { LineIcon } from '../ui/LineIcon';

export interface PresentationLinkProps {
  href: string;
  label?: string;
  /** `light` on dark backgrounds. */
  tone?: 'accent' | 'light';
}

/** Call to action to an external booking page, opened in a new tab. */
export default function PresentationLink({
  href,
  label = 'Solicita una Presentación',
  tone = 'accent',
}: PresentationLinkProps) {
  const toneClass =
    tone === 'light'
      ? 'bg-white text-brand-900 hover:bg-brand-50 focus-visible:outline-white'
      : 'bg-accent-700 text-white hover:bg-brand-800';
  return (
    <a
      href={href}
      target="_blank"
      rel="noopener"
      className={`inline-flex items-center justify-center gap-2 rounded-button px-6 py-3.5 font-semibold shadow-sm transition ${toneClass}`}
    >
      {label}
      <LineIcon className="size-4" weight="2" box={20}>
        <path d="M8 4H4.5A1.5 1.5 0 0 0 3 5.5v10A1.5 1.5 0 0 0 4.5 17h10a1.5 1.5 0 0 0 1.5-1.5V12M11 3h6v6M17 3l-8 8" />
      </LineIcon>
      <span className="sr-only"> (se abre en una pestaña nueva)</span>
    </a>
  );
}
