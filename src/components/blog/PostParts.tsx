import type { BlogImage } from './BlogCard';

/** An article's picture: eager and high priority as the article's own image, lazy on a card. */
export function PostImage({
  image,
  alt,
  priority = false,
  className,
}: {
  image: BlogImage;
  alt: string;
  priority?: boolean;
  className: string;
}) {
  return (
    <img
      src={image.src}
      width={image.width}
      height={image.height}
      alt={alt}
      {...(priority ? { fetchPriority: 'high' as const } : { loading: 'lazy' as const })}
      decoding="async"
      className={className}
    />
  );
}

/** An article's cover under its header: the first image of the page, loaded first. */
export function ArticleCover({ image, alt }: { image: BlogImage; alt: string }) {
  return (
    <div className="mx-auto max-w-4xl px-4 sm:px-6">
      <PostImage
        image={image}
        alt={alt}
        priority
        className="aspect-[16/9] w-full rounded-card border border-line object-cover shadow-lg shadow-brand-900/10"
      />
    </div>
  );
}

/** "12 de marzo de 2025 · 4 min de lectura": the separator is hidden from screen readers, which hear a comma. */
export function PostMeta({
  dateIso,
  dateLabel,
  readingTime,
  prefix,
  className,
  readingClassName,
}: {
  dateIso: string;
  dateLabel: string;
  readingTime: string;
  /** 'Publicado el ' on the article itself (spec §2). */
  prefix?: string;
  className: string;
  readingClassName?: string;
}) {
  return (
    <p className={className}>
      {prefix}
      <time dateTime={dateIso}>{dateLabel}</time>
      <span aria-hidden="true"> · </span>
      <span className="sr-only">, </span>
      {readingClassName ? <span className={readingClassName}>{readingTime}</span> : readingTime}
    </p>
  );
}
