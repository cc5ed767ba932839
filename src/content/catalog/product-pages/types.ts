/**
 * The shape of a product page's content (`/producto/*`): the copy, images and table rows that the
 * section components of `src/components/products/sections/` render. One module per product
 * (`admcloud.ts`, `restaurantpe.ts`, `tiendao.ts`) satisfies `ProductPageContent`; each page lists the
 * sections it shows, in order, fed by that module.
 *
 * Links to configured addresses (booking, demo, video ids) are not content: the page passes them from
 * the server configuration.
 */
import type { ImageMetadata } from 'astro';
import type { ComparisonRow } from '../../../components/products/ComparisonTable.tsx';
import type { ProductId } from '../products.ts';

/** An `<h2>` with its id (the section's `aria-labelledby`) and an optional lead paragraph under it. */
export interface SectionHeading {
  id: string;
  title: string;
  lead?: string;
}

/** A title and a short text: a feature, a benefit, a pillar. */
export interface TitledText {
  title: string;
  text: string;
}

/** A link inside the page or to another page. */
export interface PageLink {
  href: string;
  label: string;
}

/** An imported image with its alternative text and the size it is rendered at. */
export interface SizedImage {
  image: ImageMetadata;
  alt: string;
  width: number;
  height: number;
}

/** Head of the page: title, description and the image shared by social cards and the product JSON-LD. */
export interface ProductSeo {
  /** Page title (the company name is appended by SiteLayout). */
  title: string;
  description: string;
  image: ImageMetadata;
  /** schema.org `category` of the product. */
  category: string;
  /** A published price: schema.org `Offer`. */
  offer?: {
    /** US dollars. */
    price: number;
    description: string;
    /** Section of the page with the prices (its id, without `#`). */
    anchor: string;
  };
}

export interface ProductHeroContent {
  /** Colour of the light behind the hero (`.product-hero-glow--*` in products.css); brand blue by default. */
  glow?: 'coral' | 'green';
  /** Grid gap and the desktop column split of the text and the picture. */
  gap: 'gap-10' | 'gap-12';
  columns: `lg:grid-cols-[${string}]`;
  /** Above the title: the product's logo on a white pill, or a line of small capitals. */
  badge: ({ kind: 'logo' } & SizedImage) | { kind: 'eyebrow'; text: string };
  title: string;
  lead: string;
  /** Short labels under the lead, as a list with an accessible name. */
  highlights?: { label: string; items: readonly string[] };
  /** `booking`: the "Solicita una Presentación" link to the configured booking page. */
  primaryAction: { kind: 'booking' } | ({ kind: 'link' } & PageLink);
  secondaryAction: PageLink;
  picture: SizedImage & {
    /** Rounded corners and a shadow. */
    framed: boolean;
    /** Shown on phones too (centred, at most `max-w-xl`); desktop only otherwise. */
    onPhones: boolean;
  };
}

/** A centred introduction followed by a two-column grid of illustrated cards. */
export interface FeatureGridContent {
  heading: SectionHeading;
  items: readonly (TitledText & { image: ImageMetadata; alt: string })[];
}

export interface CarouselSectionContent {
  /** Id of the section, when the page links to it. */
  anchor?: string;
  heading: SectionHeading & {
    /** Space above the lead (Tailwind margin). */
    leadGap: 'mt-2' | 'mt-3';
  };
  /** Grey background. */
  surface: boolean;
  /** Accessible name of the carousel region. */
  label: string;
  slides: readonly { image: ImageMetadata; alt: string; caption?: string }[];
  /** Several slides in view: pagination bullets, the space between slides, their width and the swipe hint. */
  multi?: { gap: number; slideClassName: string; hint: string };
}

/** Numbered columns of text. */
export interface PillarsContent {
  heading: SectionHeading;
  items: readonly TitledText[];
}

/** A checked list of benefits beside a panel with the product's logo. */
export interface BenefitsContent {
  heading: SectionHeading;
  items: readonly TitledText[];
  panel: SizedImage & { caption: string };
}

/** Numbered cards closed by one highlighted card. */
export interface NumberedCardsContent {
  heading: SectionHeading;
  items: readonly TitledText[];
  closing: TitledText;
}

export interface VideoSectionContent {
  anchor: string;
  heading: SectionHeading;
  /** Accessible name of the play button and the player. */
  videoTitle: string;
  poster: ImageMetadata;
}

/** The comparison table and a call to action under it. */
export interface ComparisonSectionContent {
  anchor: string;
  heading: SectionHeading;
  productName: string;
  othersName: string;
  rows: ComparisonRow[];
  /** Text of the call-to-action box under the table. */
  closing: string;
}

/** The investment calculator and what each payment includes. */
export interface PricingContent {
  anchor: string;
  heading: SectionHeading;
  plans: readonly { title: string; intro: string; items: readonly string[] }[];
  extras: { title: string; intro: string; items: readonly { name: string; price: string }[] };
}

/** Closing banner on a dark background with one link. */
export interface CallToActionContent {
  /** Id of the heading, which then names the section. */
  headingId?: string;
  title: string;
  text: string;
  /** Text of the link ("Solicita una Presentación" by default). */
  linkLabel?: string;
}

/**
 * Everything a product page says. Sections are optional because each product shows its own set;
 * a module declares it with `satisfies ProductPageContent`, so its pages see exactly the sections it has.
 */
export interface ProductPageContent {
  product: ProductId;
  seo: ProductSeo;
  hero: ProductHeroContent;
  features?: FeatureGridContent;
  benefits?: BenefitsContent;
  ownerPanel?: NumberedCardsContent;
  carousel?: CarouselSectionContent;
  pillars?: PillarsContent;
  video?: VideoSectionContent;
  comparison?: ComparisonSectionContent;
  pricing?: PricingContent;
  callToAction?: CallToActionContent;
}
