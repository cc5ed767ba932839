import { PostImage, PostMeta, type BlogImage } from './PostParts';

export type { BlogImage } from './PostParts';

export interface BlogCardProps {
  href: string;
  title: string;
  excerpt: string;
  /** Date already written in Spanish, and its ISO day for `<time>`. */
  dateLabel: string;
  dateIso: string;
  /** Null for an article without a cover (the card keeps its tinted frame). */
  image: BlogImage | null;
  imageAlt: string;
  /** "4 min de lectura". */
  readingTime: string;
  /** h2 on the blog grid; h3 under an article's own h2 ("Sigue leyendo"). */
  headingLevel?: 'h2' | 'h3';
}

/** A card of the blog grid; the whole card is one link ('Leer más →' is its visible call to action). */
export default function BlogCard({
  href,
  title,
  excerpt,
  dateLabel,
  dateIso,
  image,
  imageAlt,
  readingTime,
  headingLevel = 'h2',
}: BlogCardProps) {
  const Heading = headingLevel;
  return (
    <article className="group relative flex flex-col overflow-hidden rounded-card border border-line bg-white shadow-sm transition-shadow hover:shadow-xl hover:shadow-brand-900/10">
      <div className="aspect-[16/9] overflow-hidden bg-brand-50">
        {image && (
          <PostImage
            image={image}
            alt={imageAlt}
            className="size-full object-cover transition-transform duration-500 group-hover:scale-[1.03] motion-reduce:transition-none"
          />
        )}
      </div>
      <div className="flex flex-1 flex-col p-6">
        <PostMeta
          dateIso={dateIso}
          dateLabel={dateLabel}
          readingTime={readingTime}
          className="text-sm text-muted"
        />
        <Heading className="mt-2 text-xl leading-snug font-bold text-brand-900">{title}</Heading>
        <p className="mt-3 flex-1 leading-relaxed text-muted">{excerpt}</p>
        <a
          href={href}
          className="mt-5 inline-flex w-fit items-center font-semibold text-brand-700 after:absolute after:inset-0 after:rounded-card group-hover:text-accent-700"
        >
          Leer más →<span className="sr-only">: {title}</span>
        </a>
      </div>
    </article>
  );
}
