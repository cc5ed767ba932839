/** Home-screen icon for iOS (which ignores SVG favicons), rasterised from the favicon at build time. */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { APIRoute } from 'astro';
import sharp from 'sharp';

export const prerender = true;

export const GET: APIRoute = async () => {
  // Prerendered: runs once, during the build, from the project folder.
  const svg = await readFile(join(process.cwd(), 'public/favicon.svg'));
  const png = await sharp(svg, { density: 400 })
    .resize(180, 180)
    .flatten({ background: '#0b1f3a' })
    .png()
    .toBuffer();
  return new Response(new Uint8Array(png), { headers: { 'Content-Type': 'image/png' } });
};
