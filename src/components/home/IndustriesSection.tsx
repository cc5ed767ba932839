import { Section } from '../ui/Section';

export interface IndustryItem {
  name: string;
  description: string;
  /** Names of clients of this industry on the logo wall (none hides the line). */
  clients: readonly string[];
}

/** Industries we serve (on /clientes and /sobrenosotros). */
export default function IndustriesSection({
  industries,
  title = 'Industrias que atendemos',
  id = 'industrias',
}: {
  industries: readonly IndustryItem[];
  title?: string;
  id?: string;
}) {
  return (
    <Section
      id={id}
      eyebrow="Experiencia por sector"
      title={title}
      tone="surface"
      intro="Cada industria tiene su forma de vender, de controlar inventario y de cumplir con la DGII. Llegamos con la configuración que ya funciona en empresas como la tuya."
    >
      <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        {industries.map((industry) => (
          <li
            key={industry.name}
            data-reveal="fade-up"
            className="rounded-card border border-line bg-white p-6"
          >
            <h3 className="font-bold text-brand-900">{industry.name}</h3>
            <p className="mt-2 text-sm text-muted">{industry.description}</p>
            {industry.clients.length > 0 && (
              <p className="mt-4 border-t border-line pt-3 text-xs font-medium text-accent-700">
                {industry.clients.join(' · ')}
              </p>
            )}
          </li>
        ))}
      </ul>
    </Section>
  );
}
