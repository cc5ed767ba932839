import type { ReactNode } from 'react';
import { LineIcon } from './LineIcon';

export type ButtonVariant = 'primary' | 'secondary' | 'accent' | 'light' | 'outline-light' | 'ghost';
export type ButtonSize = 'md' | 'lg';

const BASE =
  'inline-flex items-center justify-center gap-2 rounded-button font-semibold transition-colors duration-200 focus-visible:outline-2 focus-visible:outline-offset-2 disabled:opacity-60';

const VARIANTS: Record<ButtonVariant, string> = {
  primary: 'bg-brand-700 text-white shadow-sm hover:bg-brand-800 focus-visible:outline-brand-500',
  secondary: 'border border-line bg-white text-brand-900 hover:border-brand-500 hover:text-brand-700',
  accent: 'bg-accent-500 text-brand-950 shadow-sm hover:bg-accent-100 focus-visible:outline-accent-500',
  light: 'bg-white text-brand-900 shadow-sm hover:bg-brand-50 focus-visible:outline-white',
  'outline-light':
    'border border-white/40 text-white hover:border-white hover:bg-white/10 focus-visible:outline-white',
  ghost: 'text-brand-700 hover:bg-brand-50',
};

const SIZES: Record<ButtonSize, string> = {
  md: 'min-h-11 px-5 py-2.5 text-sm',
  lg: 'min-h-12 px-6 py-3 text-base',
};

/** Tailwind classes of a button, for `<button>` elements that cannot use {@link ButtonLink}. */
export function buttonClasses(
  variant: ButtonVariant = 'primary',
  size: ButtonSize = 'md',
  extra = '',
): string {
  return [BASE, VARIANTS[variant], SIZES[size], extra].filter(Boolean).join(' ');
}

export interface ButtonLinkProps {
  href: string;
  children: ReactNode;
  variant?: ButtonVariant;
  size?: ButtonSize;
  /** Opens in a new tab with `rel="noopener"` and says so to screen readers. */
  external?: boolean;
  className?: string;
}

/** A link styled as a button. */
export function ButtonLink({
  href,
  children,
  variant = 'primary',
  size = 'md',
  external = false,
  className = '',
}: ButtonLinkProps) {
  return (
    <a
      href={href}
      className={buttonClasses(variant, size, className)}
      {...(external ? { target: '_blank', rel: 'noopener' } : {})}
    >
      {children}
      {external && (
        <>
          <ExternalIcon />
          <span className="sr-only"> (se abre en una pestaña nueva)</span>
        </>
      )}
    </a>
  );
}

export function ExternalIcon() {
  return (
    <LineIcon className="size-4 shrink-0" weight="2" box={20}>
      <path d="M11 4h5v5M16 4l-7 7M14 12v3a1 1 0 0 1-1 1H5a1 1 0 0 1-1-1V7a1 1 0 0 1 1-1h3" />
    </LineIcon>
  );
}

export function ArrowIcon() {
  return (
    <LineIcon
      className="size-4 shrink-0 transition-transform duration-200 group-hover:translate-x-0.5"
      weight="2"
      box={20}
    >
      <path d="M4 10h12M11 5l5 5-5 5" />
    </LineIcon>
  );
}
