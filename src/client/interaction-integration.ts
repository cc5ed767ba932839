import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';

/** Registers `client:interaction` (see interaction-directive.ts). */
export default function interactionDirective(): AstroIntegration {
  return {
    name: 'vertice:client-interaction',
    hooks: {
      'astro:config:setup': ({ addClientDirective }) => {
        addClientDirective({
          name: 'interaction',
          entrypoint: fileURLToPath(new URL('./interaction-directive.ts', import.meta.url)),
        });
      },
    },
  };
}
