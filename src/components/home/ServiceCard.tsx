import ServiceIcon, { type ServiceIconName } from './ServiceIcon';
import { CheckIcon } from '../ui/LineIcon';

export type ServiceTone = 'brand' | 'accent' | 'sun';

export interface ServiceCardData {
  title: string;
  description: string;
  icon: ServiceIconName;
  background: ServiceTone;
  animation: string;
  highlights?: readonly string[];
}

const TONES: Record<ServiceTone, { card: string; icon: string; bullet: string }> = {
  brand: { card: 'bg-brand-50 border-brand-100', icon: 'bg-brand-700 text-white', bullet: 'text-brand-600' },
  accent: {
    card: 'bg-accent-100/50 border-accent-100',
    icon: 'bg-accent-700 text-white',
    bullet: 'text-accent-700',
  },
  sun: { card: 'bg-sun-100/60 border-sun-100', icon: 'bg-sun-500 text-brand-950', bullet: 'text-sun-600' },
};

/** Service card of the spec: title, description, icon, background colour and a reveal animation. */
export default function ServiceCard({
  service,
  headingLevel = 3,
}: {
  service: ServiceCardData;
  headingLevel?: 2 | 3;
}) {
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  const tone = TONES[service.background];
  return (
    <article
      data-reveal={service.animation}
      className={`flex h-full flex-col rounded-card border p-7 sm:p-8 ${tone.card}`}
    >
      <span className={`grid size-14 place-items-center rounded-button shadow-sm ${tone.icon}`}>
        <ServiceIcon name={service.icon} />
      </span>
      <Heading className="mt-6 text-xl font-bold text-brand-900">{service.title}</Heading>
      <p className="mt-3 text-ink/80">{service.description}</p>
      {service.highlights && service.highlights.length > 0 && (
        <ul className="mt-6 space-y-2 border-t border-ink/10 pt-5 text-sm text-ink/80">
          {service.highlights.map((item) => (
            <li key={item} className="flex gap-2">
              <CheckIcon className={`mt-0.5 size-4 shrink-0 ${tone.bullet}`} />
              {item}
            </li>
          ))}
        </ul>
      )}
    </article>
  );
}
