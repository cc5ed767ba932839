import { ROUTES } from '../../routes';
import { ArrowIcon, ButtonLink } from '../ui/Button';
import { Section, type SectionTone } from '../ui/Section';
import ServiceCard, { type ServiceCardData } from './ServiceCard';

export interface ServicesSectionProps {
  services: readonly ServiceCardData[];
  headingLevel?: 1 | 2;
  tone?: SectionTone;
  /** Show the deliverables of each service (on /servicios). */
  detailed?: boolean;
  /** Link to /servicios under the cards (on the home page). */
  showMoreLink?: boolean;
}

export default function ServicesSection({
  services,
  headingLevel = 2,
  tone = 'white',
  detailed = false,
  showMoreLink = false,
}: ServicesSectionProps) {
  return (
    <Section
      id="servicios"
      eyebrow="Lo que hacemos"
      title="Nuestros Servicios"
      headingLevel={headingLevel}
      tone={tone}
      intro="Del diagnóstico a la salida en vivo: implementamos, desarrollamos a la medida y entrenamos a tu equipo para que el sistema se use de verdad."
    >
      <ul className="grid gap-6 md:grid-cols-3 lg:gap-8">
        {services.map((service) => (
          <li key={service.title}>
            <ServiceCard
              service={detailed ? service : { ...service, highlights: undefined }}
              headingLevel={headingLevel === 1 ? 2 : 3}
            />
          </li>
        ))}
      </ul>
      {showMoreLink && (
        <div className="mt-10 text-center">
          <ButtonLink href={ROUTES.services} variant="secondary" className="group">
            Cómo trabajamos una implementación
            <ArrowIcon />
          </ButtonLink>
        </div>
      )}
    </Section>
  );
}
