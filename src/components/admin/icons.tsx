/** Small line icons of the staff islands (24×24, stroke = currentColor); the staff frame's are AdminIcon.astro. */
import type { ReactNode } from 'react';
import { LineIcon } from '../ui/LineIcon';

const Icon = ({ children, className = 'size-5' }: { children: ReactNode; className?: string }) => (
  <LineIcon className={className} weight="1.8">
    {children}
  </LineIcon>
);

export const ExternalIcon = (p: { className?: string }) => (
  <Icon {...p}>
    <path d="M14 4h6v6M20 4l-9 9" />
    <path d="M18 14v5a1 1 0 0 1-1 1H5a1 1 0 0 1-1-1V7a1 1 0 0 1 1-1h5" />
  </Icon>
);
export const DownloadIcon = (p: { className?: string }) => (
  <Icon {...p}>
    <path d="M12 4v11M7 10l5 5 5-5M5 20h14" />
  </Icon>
);
export const ChevronDownIcon = (p: { className?: string }) => (
  <Icon {...p}>
    <path d="m6 9 6 6 6-6" />
  </Icon>
);
