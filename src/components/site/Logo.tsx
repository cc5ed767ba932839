export interface LogoProps {
  companyName: string;
  /** `light` for dark backgrounds (footer). */
  tone?: 'dark' | 'light';
  /** Extra words for screen readers only, after the name (e.g. where the link goes). */
  label?: string;
}

/** The company mark: a vertex (a "V" meeting at a sun-coloured point) on a navy tile. */
export function LogoMark({ className = 'size-10' }: { className?: string }) {
  return (
    <svg viewBox="0 0 40 40" className={className} aria-hidden="true" focusable="false">
      <rect width="40" height="40" rx="11" fill="#0b1f3a" />
      <path d="M9.5 11.5 20 29" stroke="#14b8a6" strokeWidth="4.6" strokeLinecap="round" fill="none" />
      <path d="M30.5 11.5 20 29" stroke="#e3ecfb" strokeWidth="4.6" strokeLinecap="round" fill="none" />
      <circle cx="20" cy="29" r="3.6" fill="#f59e0b" stroke="#0b1f3a" strokeWidth="1.6" />
    </svg>
  );
}

/** Mark + two-line wordmark ("Vértice" / "CONSULTORES"), built from the configured company name. */
export default function Logo({ companyName, tone = 'dark', label }: LogoProps) {
  const [first, ...rest] = companyName.split(' ');
  const second = rest.join(' ');
  return (
    <span className="flex items-center gap-2.5">
      <LogoMark className={tone === 'dark' ? 'size-10' : 'size-10 rounded-[11px] ring-1 ring-white/25'} />
      <span className="flex flex-col leading-none">
        <span
          className={`text-xl font-extrabold tracking-tight ${tone === 'dark' ? 'text-brand-900' : 'text-white'}`}
        >
          {first}
        </span>
        {second && ' '}
        {second && (
          <span
            className={`mt-1 text-[0.68rem] font-semibold tracking-[0.22em] uppercase ${tone === 'dark' ? 'text-accent-700' : 'text-accent-500'}`}
          >
            {second}
          </span>
        )}
      </span>
      {label && <span className="sr-only">{label}</span>}
    </span>
  );
}
