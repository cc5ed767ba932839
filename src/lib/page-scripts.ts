/**
 * The tiny page scripts of src/scripts/, minified at build time (see inline-script.ts) for
 * `<script is:inline set:html={PAGE_SCRIPTS.…} />`: no script file is downloaded for them, and the
 * CSP allows exactly these texts by hash (astro.config.ts).
 */
import aboutVideo from '../scripts/about-video.ts?inline-script';
import helpfulVote from '../scripts/helpful-vote.ts?inline-script';
import carouselLoader from '../scripts/carousel-loader.ts?inline-script';
import recommendation from '../scripts/recommendation.ts?inline-script';
import reveal from '../scripts/reveal.ts?inline-script';

export const PAGE_SCRIPTS = { aboutVideo, carouselLoader, helpfulVote, recommendation, reveal } as const;
