/** An article's picture as the cards and articles get it (built image or stored one); here, below BlogCard, which imports these parts. */
export interface BlogImage {
  src: string;
  width: number;
  height: number;
}

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

/** An article's heading (blog or help centre): its title, its summary, and its date and reading time. */
export function ArticleHeading({
  title,
  excerpt,
  datePrefix,
  dateIso,
  dateLabel,
  readingTime,
  titleMargin,
}: {
  title: string;
  excerpt: string;
  /** 'Publicado el ' on a public article; a preview's own words ('Borrador del '). */
  datePrefix?: string;
  dateIso: string;
  dateLabel: string;
  readingTime: string;
  /** The space above the title, after what precedes it (a back link, the breadcrumbs). */
  titleMargin: 'mt-6' | 'mt-8';
}) {
  return (
    <>
      <h1
        className={`${titleMargin} text-3xl leading-tight font-extrabold tracking-tight text-brand-900 sm:text-[2.6rem]`}
      >
        {title}
      </h1>
      <p className="mt-4 text-lg leading-relaxed text-muted">{excerpt}</p>
      <PostMeta
        prefix={datePrefix}
        dateIso={dateIso}
        dateLabel={dateLabel}
        readingTime={readingTime}
        className="mt-5 text-sm font-medium text-accent-700"
        readingClassName="text-muted"
      />
    </>
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
