export type ServiceIconName = 'implementation' | 'development' | 'training';

/** Line icons of the three services (decorative: the card title names the service). */
export default function ServiceIcon({
  name,
  className = 'size-7',
}: {
  name: ServiceIconName;
  className?: string;
}) {
  const common = {
    'aria-hidden': true,
    viewBox: '0 0 24 24',
    className,
    fill: 'none',
    stroke: 'currentColor',
    strokeWidth: 1.7,
    strokeLinecap: 'round',
    strokeLinejoin: 'round',
  } as const;
  switch (name) {
    case 'implementation':
      return (
        <svg {...common}>
          <path d="M7 18a4.5 4.5 0 0 1-.6-9A6 6 0 0 1 18 8.5a4.5 4.5 0 0 1-.5 9.5" />
          <path d="M9 15l2.5 2.5L16 13" />
        </svg>
      );
    case 'development':
      return (
        <svg {...common}>
          <path d="M8 8l-4 4 4 4M16 8l4 4-4 4M13.5 5l-3 14" />
        </svg>
      );
    case 'training':
      return (
        <svg {...common}>
          <path d="M2 9l10-5 10 5-10 5z" />
          <path d="M6 11v5c0 1.5 2.7 3 6 3s6-1.5 6-3v-5M22 9v6" />
        </svg>
      );
  }
}
