import { Section, type SectionTone } from '../ui/Section';
import ProductCard, { type ProductCardData } from './ProductCard';

export interface ProductsSectionProps {
  products: readonly ProductCardData[];
  /** 1 on /productos, where this section is the page. */
  headingLevel?: 1 | 2;
  tone?: SectionTone;
}

export default function ProductsSection({
  products,
  headingLevel = 2,
  tone = 'surface',
}: ProductsSectionProps) {
  return (
    <Section
      id="productos"
      eyebrow="Software para tu empresa"
      title="Nuestros Productos"
      headingLevel={headingLevel}
      tone={tone}
      intro="Tres sistemas probados en empresas dominicanas: contabilidad y facturación electrónica en la nube, punto de venta para restaurantes y tu propia tienda en línea."
    >
      <ul className="grid gap-6 md:grid-cols-2 lg:grid-cols-3 lg:gap-8">
        {products.map((product) => (
          <li key={product.link}>
            <ProductCard product={product} headingLevel={headingLevel === 1 ? 2 : 3} />
          </li>
        ))}
      </ul>
    </Section>
  );
}
