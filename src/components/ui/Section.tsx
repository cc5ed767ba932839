import type { ReactNode } from 'react';

export type SectionTone = 'white' | 'surface' | 'navy';

const TONES: Record<SectionTone, string> = {
  white: 'bg-white',
  surface: 'bg-surface',
  navy: 'bg-brand-950 text-white',
};

export interface SectionProps {
  id: string;
  title: string;
  /** Small line above the title. */
  eyebrow?: string;
  intro?: ReactNode;
  /** 1 when the section is the page's main content (its title is the page's h1). */
  headingLevel?: 1 | 2;
  tone?: SectionTone;
  /** Centre the heading block (default) or align it left. */
  align?: 'center' | 'left';
  children?: ReactNode;
  className?: string;
}

/** A page section with its heading block; the `<section>` is labelled by its title. */
export function Section({
  id,
  title,
  eyebrow,
  intro,
  headingLevel = 2,
  tone = 'white',
  align = 'center',
  children,
  className = '',
}: SectionProps) {
  const Heading = headingLevel === 1 ? 'h1' : 'h2';
  const headingId = `${id}-titulo`;
  const navy = tone === 'navy';
  return (
    <section
      id={id}
      aria-labelledby={headingId}
      className={`scroll-mt-header py-16 sm:py-24 ${TONES[tone]} ${className}`}
    >
      <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
        <div className={align === 'center' ? 'mx-auto max-w-3xl text-center' : 'max-w-3xl'}>
          {eyebrow && (
            <p
              className={`text-sm font-semibold tracking-wider uppercase ${navy ? 'text-accent-500' : 'text-accent-700'}`}
            >
              {eyebrow}
            </p>
          )}
          <Heading
            id={headingId}
            className={`mt-2 text-3xl font-bold tracking-tight text-balance sm:text-4xl ${navy ? 'text-white' : 'text-brand-900'}`}
          >
            {title}
          </Heading>
          {intro && (
            <div className={`mt-4 text-lg text-pretty ${navy ? 'text-brand-100' : 'text-muted'}`}>
              {intro}
            </div>
          )}
        </div>
        {children && <div className="mt-12 sm:mt-16">{children}</div>}
      </div>
    </section>
  );
}
