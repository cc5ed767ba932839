declare module 'astro' {
  interface AstroClientDirectives {
    /** Hydrate on the first interaction with the island (src/client/interaction-directive.ts). */
    'client:interaction'?: boolean;
  }
}

export {};
