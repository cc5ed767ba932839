/** A page script of src/scripts/, minified at build time (astro.config.ts, src/lib/inline-script.ts). */
declare module '*?inline-script' {
  const source: string;
  export default source;
}
