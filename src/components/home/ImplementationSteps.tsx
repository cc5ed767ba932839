import { Section } from '../ui/Section';

export interface Step {
  title: string;
  description: string;
  duration: string;
}

/** How an implementation runs, as a numbered timeline (on /servicios). */
export default function ImplementationSteps({ steps }: { steps: readonly Step[] }) {
  return (
    <Section
      id="como-trabajamos"
      eyebrow="Paso a paso"
      title="Cómo funciona una implementación"
      tone="surface"
      intro="Una implementación típica de AdmCloud toma de cuatro a seis semanas. Sabes en todo momento en qué etapa estamos, qué necesitamos de tu equipo y qué sigue."
    >
      <ol className="grid gap-6 md:grid-cols-2 lg:grid-cols-3">
        {steps.map((step, index) => (
          <li
            key={step.title}
            data-reveal="fade-up"
            className="relative rounded-card border border-line bg-white p-7 shadow-sm"
          >
            <div className="flex items-center justify-between gap-3">
              <span
                aria-hidden="true"
                className="grid size-11 place-items-center rounded-full bg-brand-900 text-lg font-bold text-white"
              >
                {index + 1}
              </span>
              <span className="rounded-full bg-accent-100 px-3 py-1 text-xs font-semibold text-accent-700">
                {step.duration}
              </span>
            </div>
            <h3 className="mt-5 text-lg font-bold text-brand-900">
              <span className="sr-only">Paso {index + 1}: </span>
              {step.title}
            </h3>
            <p className="mt-2 text-muted">{step.description}</p>
          </li>
        ))}
      </ol>
    </Section>
  );
}
