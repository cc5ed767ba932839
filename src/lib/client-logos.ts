/**
 * A client logo's image as the wall shows it: `asset:clients/<file>` is a logo of src/assets/clients
 * the build processed (its hashed `/_astro/` file, width and height: what the prerendered wall had);
 * an uploaded one is served from memory at its own address (src/server/content/client-logos.ts).
 */
import type { ImageMetadata } from 'astro';
import type { ImageSource } from '../components/ui/image.ts';

const ASSETS = import.meta.glob<ImageMetadata>('../assets/clients/*', { eager: true, import: 'default' });

export interface LogoImageFields {
  imageRef: string | null;
  imageWidth: number;
  imageHeight: number;
  /** The uploaded image's address, when it has one. */
  uploadedPath: string | null;
}

/** The image's address and size; null for a reference to a file that is not there. */
export function logoImageOf(logo: LogoImageFields): ImageSource | null {
  if (logo.imageRef) {
    const match = /^asset:clients\/(.+)$/.exec(logo.imageRef);
    const image = match ? ASSETS[`../assets/clients/${match[1]}`] : undefined;
    return image ? { src: image.src, width: image.width, height: image.height } : null;
  }
  return logo.uploadedPath
    ? { src: logo.uploadedPath, width: logo.imageWidth, height: logo.imageHeight }
    : null;
}

/** The build's logo of a file of src/assets/clients (the industries' data and the import name files). */
export function assetLogo(file: string): ImageSource | null {
  return logoImageOf({
    imageRef: `asset:clients/${file}`,
    imageWidth: 0,
    imageHeight: 0,
    uploadedPath: null,
  });
}
