import { Section } from '../ui/Section';
import { CheckIcon } from '../ui/LineIcon';

export interface ProductFit {
  name: string;
  idealFor: string;
  modules: readonly string[];
  timeline: string;
}

/** "Which one fits you": the three products side by side (on /productos). */
export default function ProductComparison({ products }: { products: readonly ProductFit[] }) {
  return (
    <Section
      id="cual-te-conviene"
      eyebrow="Compara"
      title="¿Cuál te conviene?"
      tone="surface"
      intro="Muchos clientes combinan dos: AdmCloud para la contabilidad y Restaurant.pe o Tiendao para vender. Los integramos para que cada venta llegue sola a tus libros."
    >
      <ul className="grid gap-6 lg:grid-cols-3">
        {products.map((product) => (
          <li
            key={product.name}
            data-reveal="fade-up"
            className="flex flex-col rounded-card border border-line bg-white p-7 shadow-sm"
          >
            <h3 className="text-xl font-bold text-brand-900">{product.name}</h3>
            <p className="mt-1 text-sm font-semibold text-accent-700">Ideal para {product.idealFor}</p>
            <ul className="mt-5 flex-1 space-y-2 text-muted">
              {product.modules.map((module) => (
                <li key={module} className="flex gap-2">
                  <CheckIcon className="mt-1 size-4 shrink-0 text-accent-600" />
                  {module}
                </li>
              ))}
            </ul>
            <p className="mt-6 border-t border-line pt-4 text-sm text-ink">
              <span className="font-semibold">Puesta en marcha:</span> {product.timeline}
            </p>
          </li>
        ))}
      </ul>
    </Section>
  );
}
