import { ROUTES } from '../../routes';
import { ArrowIcon, ButtonLink } from '../ui/Button';

export interface CompanyFact {
  value: string;
  label: string;
}

/** The company in numbers, shared by the home About section and /sobrenosotros. */
export const COMPANY_FACTS: readonly CompanyFact[] = [
  { value: '2023', label: 'año de fundación' },
  { value: '15+', label: 'años de experiencia de nuestro equipo' },
  { value: '7', label: 'industrias atendidas' },
  { value: '3', label: 'sistemas que implementamos y soportamos' },
];

export function FactGrid({
  facts,
  tone = 'light',
}: {
  facts: readonly CompanyFact[];
  tone?: 'light' | 'navy';
}) {
  const navy = tone === 'navy';
  return (
    <dl className="grid grid-cols-2 gap-4 self-center">
      {facts.map((fact) => (
        <div
          key={fact.label}
          data-reveal="zoom"
          className={`flex flex-col-reverse justify-end rounded-card p-6 ${navy ? 'bg-white/5 ring-1 ring-white/10' : 'border border-line bg-white shadow-sm'}`}
        >
          <dt className={`mt-2 text-sm ${navy ? 'text-brand-100' : 'text-muted'}`}>{fact.label}</dt>
          <dd className={`text-4xl font-extrabold tracking-tight ${navy ? 'text-white' : 'text-brand-900'}`}>
            {fact.value}
          </dd>
        </div>
      ))}
    </dl>
  );
}

/** About section of the home page: who we are in two paragraphs and four figures. */
export default function AboutSection({ companyName }: { companyName: string }) {
  return (
    <section
      id="sobre-nosotros"
      aria-labelledby="sobre-nosotros-titulo"
      className="scroll-mt-header bg-surface py-16 sm:py-24"
    >
      <div className="mx-auto grid max-w-7xl items-center gap-12 px-4 sm:px-6 lg:grid-cols-2 lg:gap-20 lg:px-8">
        <div data-reveal="fade-right">
          {/* The spec heads this section 'Sobre Nosotros'; the claim below is its first sub-heading. */}
          <h2
            id="sobre-nosotros-titulo"
            className="text-sm font-semibold tracking-wider text-accent-700 uppercase"
          >
            Sobre Nosotros
          </h2>
          <h3 className="mt-2 text-3xl font-bold tracking-tight text-balance text-brand-900 sm:text-4xl">
            Una consultora joven con más de 15 años de oficio
          </h3>
          <p className="mt-5 text-lg text-muted">
            {companyName} nació en 2023 en Santo Domingo de la mano de consultores que llevan más de quince
            años implementando sistemas de gestión en empresas dominicanas. Conocemos los comprobantes
            fiscales, los formatos de la DGII y la realidad de un cierre de mes con el tiempo en contra.
          </p>
          <p className="mt-4 text-muted">
            Trabajamos con manufactura, hotelería, firmas de contadores, farmacias, comercio minorista,
            restaurantes y empresas administrativas. No te vendemos una licencia y desaparecemos: te
            acompañamos hasta que el sistema sea parte de tu día a día.
          </p>
          <ButtonLink href={ROUTES.about} variant="secondary" className="group mt-8">
            Conoce nuestra historia
            <ArrowIcon />
          </ButtonLink>
        </div>
        <FactGrid facts={COMPANY_FACTS} />
      </div>
    </section>
  );
}
