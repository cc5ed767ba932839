/** Small inline icons of the frame (decorative: the link or button around them carries the name). */
import { LineIcon } from '../ui/LineIcon';

interface IconProps {
  className?: string;
}

export function GearIcon({ className = 'size-5' }: IconProps) {
  return (
    <LineIcon className={className} weight="1.8">
      <path d="M10.3 3.2h3.4l.5 2.3c.6.2 1.1.5 1.6.9l2.2-.8 1.7 2.9-1.8 1.6a6.6 6.6 0 0 1 0 1.8l1.8 1.6-1.7 2.9-2.2-.8c-.5.4-1 .7-1.6.9l-.5 2.3h-3.4l-.5-2.3a6.3 6.3 0 0 1-1.6-.9l-2.2.8-1.7-2.9 1.8-1.6a6.6 6.6 0 0 1 0-1.8L4.3 8.5 6 5.6l2.2.8c.5-.4 1-.7 1.6-.9z" />
      <circle cx="12" cy="12" r="2.6" />
    </LineIcon>
  );
}

export function MenuIcon({ className = 'size-6' }: IconProps) {
  return (
    <LineIcon className={className} weight="2">
      <path d="M4 7h16M4 12h16M4 17h10" />
    </LineIcon>
  );
}

export function CloseIcon({ className = 'size-5' }: IconProps) {
  return (
    <LineIcon className={className} weight="2">
      <path d="M6 6l12 12M18 6 6 18" />
    </LineIcon>
  );
}

export function PinIcon({ className = 'size-5' }: IconProps) {
  return (
    <LineIcon className={className} weight="1.8">
      <path d="M12 21s-6.5-5.6-6.5-11a6.5 6.5 0 0 1 13 0c0 5.4-6.5 11-6.5 11z" />
      <circle cx="12" cy="10" r="2.3" />
    </LineIcon>
  );
}

export function PhoneIcon({ className = 'size-5' }: IconProps) {
  return (
    <LineIcon className={className} weight="1.8">
      <path d="M5.5 3.5h3l1.5 4-2 1.3a11 11 0 0 0 7.2 7.2l1.3-2 4 1.5v3a2 2 0 0 1-2.2 2A17 17 0 0 1 3.5 5.7a2 2 0 0 1 2-2.2z" />
    </LineIcon>
  );
}

export function MailIcon({ className = 'size-5' }: IconProps) {
  return (
    <LineIcon className={className} weight="1.8">
      <rect x="3" y="5" width="18" height="14" rx="2.5" />
      <path d="m4 7 8 6 8-6" />
    </LineIcon>
  );
}

export function SocialIcon({ className = 'size-5' }: IconProps) {
  return (
    <LineIcon className={className} weight="1.8">
      <rect x="3.5" y="3.5" width="17" height="17" rx="5" />
      <circle cx="12" cy="12" r="3.8" />
      <circle cx="17.2" cy="6.8" r="0.6" fill="currentColor" />
    </LineIcon>
  );
}

export function SparkIcon({ className = 'size-4' }: IconProps) {
  return (
    <svg viewBox="0 0 24 24" className={className} aria-hidden="true" focusable="false" fill="currentColor">
      <path d="M12 2.5c.5 4.6 2.9 7 7.5 7.5-4.6.5-7 2.9-7.5 7.5-.5-4.6-2.9-7-7.5-7.5 4.6-.5 7-2.9 7.5-7.5zM19 15.5c.2 1.8 1.2 2.8 3 3-1.8.2-2.8 1.2-3 3-.2-1.8-1.2-2.8-3-3 1.8-.2 2.8-1.2 3-3z" />
    </svg>
  );
}

export function ArrowRightIcon({ className = 'size-4' }: IconProps) {
  return (
    <LineIcon className={className} weight="2">
      <path d="M5 12h14M13 6l6 6-6 6" />
    </LineIcon>
  );
}
