import { LineIcon } from '../ui/LineIcon';

export type ServiceIconName = 'implementation' | 'development' | 'training';

/** Line icons of the three services (decorative: the card title names the service). */
export default function ServiceIcon({
  name,
  className = 'size-7',
}: {
  name: ServiceIconName;
  className?: string;
}) {
  switch (name) {
    case 'implementation':
      return (
        <LineIcon className={className} weight="1.7">
          <path d="M7 18a4.5 4.5 0 0 1-.6-9A6 6 0 0 1 18 8.5a4.5 4.5 0 0 1-.5 9.5" />
          <path d="M9 15l2.5 2.5L16 13" />
        </LineIcon>
      );
    case 'development':
      return (
        <LineIcon className={className} weight="1.7">
          <path d="M8 8l-4 4 4 4M16 8l4 4-4 4M13.5 5l-3 14" />
        </LineIcon>
      );
    case 'training':
      return (
        <LineIcon className={className} weight="1.7">
          <path d="M2 9l10-5 10 5-10 5z" />
          <path d="M6 11v5c0 1.5 2.7 3 6 3s6-1.5 6-3v-5M22 9v6" />
        </LineIcon>
      );
  }
}
