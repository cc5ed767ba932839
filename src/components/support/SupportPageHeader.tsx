import { IncidentNumber } from '../ui/KeepWhole';

/** The intro with each incident number in it kept whole ('Tu opinión sobre la incidencia INC-…'). */
function introParts(intro: string) {
  return intro
    .split(/(INC-\d{8}-\d{4})/)
    .map((part, index) => (index % 2 ? <IncidentNumber key={index} numero={part} /> : part));
}

export interface SupportPageHeaderProps {
  eyebrow: string;
  title: string;
  intro: string;
  /** A shorter band, for a page whose own content must start high on a phone (the follow-up opened from a mail). */
  compact?: boolean;
}

/** The opening band of the support pages: navy, with a quiet line pattern drawn in SVG. */
export default function SupportPageHeader({
  eyebrow,
  title,
  intro,
  compact = false,
}: SupportPageHeaderProps) {
  return (
    <div className={`relative isolate ${compact ? 'mb-6' : 'mb-10'} overflow-hidden bg-brand-900 text-white`}>
      <svg
        aria-hidden="true"
        className="absolute inset-0 -z-10 h-full w-full opacity-20"
        preserveAspectRatio="xMidYMid slice"
        viewBox="0 0 800 240"
      >
        <defs>
          <linearGradient id="soporte-fade" x1="0" x2="1" y1="0" y2="1">
            <stop offset="0" stopColor="#14b8a6" />
            <stop offset="1" stopColor="#2f6fd6" />
          </linearGradient>
        </defs>
        <circle cx="690" cy="40" r="150" fill="none" stroke="url(#soporte-fade)" strokeWidth="2" />
        <circle cx="690" cy="40" r="105" fill="none" stroke="url(#soporte-fade)" strokeWidth="2" />
        <circle cx="690" cy="40" r="60" fill="none" stroke="url(#soporte-fade)" strokeWidth="2" />
        <path
          d="M0 200 C 200 150, 360 250, 560 190 S 760 150, 800 170"
          fill="none"
          stroke="url(#soporte-fade)"
          strokeWidth="2"
        />
      </svg>
      <div className={`mx-auto max-w-6xl px-4 sm:px-6 ${compact ? 'py-6 sm:py-8' : 'py-14 sm:py-16'}`}>
        <p className="text-sm font-semibold tracking-widest text-accent-500 uppercase">{eyebrow}</p>
        <h1
          className={`max-w-3xl font-bold tracking-tight ${compact ? 'mt-2 text-2xl sm:text-3xl' : 'mt-3 text-3xl sm:text-4xl'}`}
        >
          {title}
        </h1>
        <p className={`max-w-2xl text-brand-100 ${compact ? 'mt-2 text-base' : 'mt-4 text-lg'}`}>
          {introParts(intro)}
        </p>
      </div>
    </div>
  );
}
