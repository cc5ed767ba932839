/**
 * The tiny page scripts of src/scripts/, compacted once (see inline-script.ts) for
 * `<script is:inline set:html={PAGE_SCRIPTS.…} />`: no script file is downloaded for them, and the
 * CSP allows exactly these texts by hash (astro.config.ts).
 */
import aboutVideo from '../scripts/about-video.ts?raw';
import carouselLoader from '../scripts/carousel-loader.ts?raw';
import recommendation from '../scripts/recommendation.ts?raw';
import reveal from '../scripts/reveal.ts?raw';
import { compactScript } from './inline-script.ts';

export const PAGE_SCRIPTS = {
  aboutVideo: compactScript(aboutVideo),
  carouselLoader: compactScript(carouselLoader),
  recommendation: compactScript(recommendation),
  reveal: compactScript(reveal),
} as const;
