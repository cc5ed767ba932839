/** What a component needs to render an image: an `astro:assets` ImageMetadata satisfies it. */
export interface ImageSource {
  src: string;
  width: number;
  height: number;
}

/** Plain `{ src, width, height }` of an imported image (SVG imports are components carrying that metadata). */
export function toImageSource(image: ImageSource): ImageSource {
  return { src: image.src, width: image.width, height: image.height };
}
