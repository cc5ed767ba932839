/**
 * The one way the site draws a line icon: strokes of the text's colour with round ends and corners, no
 * fill, hidden from assistive technology (the link, button or text beside it carries the meaning).
 */
import type { ReactNode } from 'react';

export interface LineIconProps {
  className: string;
  /** The line's width, in the icon's own units. */
  weight?: string;
  /** The side of the square the paths are drawn in: 24 (most icons), 20 or 16. */
  box?: 16 | 20 | 24;
  children: ReactNode;
}

export function LineIcon({ className, weight = '2', box = 24, children }: LineIconProps) {
  return (
    <svg
      viewBox={`0 0 ${box} ${box}`}
      className={className}
      aria-hidden="true"
      focusable="false"
      fill="none"
      stroke="currentColor"
      strokeWidth={weight}
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      {children}
    </svg>
  );
}

/** A tick, as the site's lists mark what a product or service includes. */
export function CheckIcon({ className }: { className: string }) {
  return (
    <LineIcon className={className} weight="2.5" box={20}>
      <path d="M4 10.5l4 4 8-9" />
    </LineIcon>
  );
}

/** The tick of a done outcome (an incident registered), drawn inside a round badge. */
export function DoneIcon({ className }: { className: string }) {
  return (
    <LineIcon className={className} weight="2" box={20}>
      <path d="m5 10.5 3.2 3L15 7" />
    </LineIcon>
  );
}
