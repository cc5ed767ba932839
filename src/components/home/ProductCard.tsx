import { ArrowIcon, ButtonLink } from '../ui/Button';
import type { ImageSource } from '../ui/image';

export interface ProductCardData {
  name: string;
  kind: string;
  description: string;
  link: string;
  animation: string;
  image: ImageSource;
  imageAlt: string;
}

export interface ProductCardProps {
  product: ProductCardData;
  headingLevel?: 2 | 3;
}

/** Product card of the spec: image, description and 'Saber Más' to the product page. */
export default function ProductCard({ product, headingLevel = 3 }: ProductCardProps) {
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  return (
    <article
      data-reveal={product.animation}
      className="group flex h-full flex-col overflow-hidden rounded-card border border-line bg-white shadow-sm transition-shadow duration-300 hover:shadow-xl hover:shadow-brand-900/10"
    >
      <div className="overflow-hidden border-b border-line bg-surface">
        <img
          src={product.image.src}
          width={product.image.width}
          height={product.image.height}
          alt={product.imageAlt}
          loading="lazy"
          decoding="async"
          className="aspect-[8/5] w-full object-cover transition-transform duration-500 group-hover:scale-[1.03] motion-reduce:transition-none motion-reduce:group-hover:scale-100"
        />
      </div>
      <div className="flex flex-1 flex-col p-6 sm:p-7">
        <p className="text-sm font-semibold text-accent-700">{product.kind}</p>
        <Heading className="mt-1 text-2xl font-bold text-brand-900">{product.name}</Heading>
        <p className="mt-3 flex-1 text-muted">{product.description}</p>
        <ButtonLink href={product.link} variant="primary" className="group mt-6 self-start">
          Saber Más<span className="sr-only"> sobre {product.name}</span>
          <ArrowIcon />
        </ButtonLink>
      </div>
    </article>
  );
}
