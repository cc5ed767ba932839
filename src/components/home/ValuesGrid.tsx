import { LineIcon } from '../ui/LineIcon';

export type ValueIcon = 'excellence' | 'integrity' | 'customer' | 'innovation';

export interface CompanyValue {
  title: string;
  description: string;
  icon: ValueIcon;
}

export const COMPANY_VALUES: readonly CompanyValue[] = [
  {
    title: 'Compromiso con la excelencia',
    description:
      'Entregamos cada implementación probada, documentada y a tiempo. Si algo no funciona como acordamos, lo resolvemos.',
    icon: 'excellence',
  },
  {
    title: 'Integridad',
    description:
      'Te recomendamos lo que tu empresa necesita, aunque sea menos de lo que podríamos venderte. Precios claros, sin letras pequeñas.',
    icon: 'integrity',
  },
  {
    title: 'Enfoque en el cliente',
    description:
      'Aprendemos cómo trabaja tu equipo antes de tocar el sistema, y te atiende en español gente que conoce tu operación.',
    icon: 'customer',
  },
  {
    title: 'Innovación',
    description:
      'Facturación electrónica, inteligencia artificial y ventas por WhatsApp: traemos a tu negocio la tecnología que ya está dando resultados.',
    icon: 'innovation',
  },
];

const ICONS: Record<ValueIcon, string> = {
  excellence: 'M12 3l2.6 5.3 5.9.9-4.3 4.1 1 5.8L12 16.4 6.8 19.1l1-5.8L3.5 9.2l5.9-.9z',
  integrity: 'M12 3l8 3v6c0 4.5-3.4 8.3-8 9-4.6-.7-8-4.5-8-9V6zM8.5 12l2.5 2.5 4.5-5',
  customer:
    'M16 19v-1.5a3.5 3.5 0 0 0-3.5-3.5h-5A3.5 3.5 0 0 0 4 17.5V19M10 10.5a3.5 3.5 0 1 0 0-7 3.5 3.5 0 0 0 0 7zM20 19v-1.5a3.5 3.5 0 0 0-2.5-3.3M15.5 3.6a3.5 3.5 0 0 1 0 6.8',
  innovation: 'M9 18h6M10 21h4M12 3a6 6 0 0 0-3.5 10.9c.6.5 1 1.2 1 2.1h5c0-.9.4-1.6 1-2.1A6 6 0 0 0 12 3z',
};

/** The four values cards of /sobrenosotros. */
export default function ValuesGrid({ values }: { values: readonly CompanyValue[] }) {
  return (
    <ul className="grid gap-5 sm:grid-cols-2 lg:grid-cols-4">
      {values.map((value) => (
        <li
          key={value.title}
          data-reveal="fade-up"
          className="rounded-card border border-line bg-white p-6 shadow-sm"
        >
          <span
            aria-hidden="true"
            className="grid size-12 place-items-center rounded-button bg-accent-100 text-accent-700"
          >
            <LineIcon className="size-6" weight="1.8">
              <path d={ICONS[value.icon]} />
            </LineIcon>
          </span>
          <h3 className="mt-5 text-lg font-bold text-brand-900">{value.title}</h3>
          <p className="mt-2 text-sm text-muted">{value.description}</p>
        </li>
      ))}
    </ul>
  );
}
