import js from '@eslint/js';
import astro from 'eslint-plugin-astro';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { readdirSync } from 'node:fs';
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';

// Each module of src/server (a folder) shows a face: any file outside it imports its index.ts only, as
// bulletproof-react keeps features apart with import/no-restricted-paths (issue 37). Type imports too.
const SERVER_MODULES = readdirSync(new URL('./src/server/', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const FACE_MESSAGE =
  'Importa la cara del módulo (su index.ts), no sus archivos: lo que otros usan se exporta desde allí.';
const facePattern = (regex) => ({
  '@typescript-eslint/no-restricted-imports': ['error', { patterns: [{ regex, message: FACE_MESSAGE }] }],
});
const serverFaces = [
  // Outside src/server: routes, actions, the middleware, scripts.
  {
    files: [
      'src/actions/**/*.ts',
      'src/pages/**/*.{ts,astro}',
      'src/middleware.ts',
      'src/lib/**/*.ts',
      'scripts/**/*.ts',
    ],
    rules: facePattern('(^|/)server/[^/.][^/]*/(?!index\\.ts$)'),
  },
  // src/server's own top-level files (config.ts, startup.ts…).
  { files: ['src/server/*.ts'], rules: facePattern('^\\./[^/.][^/]*/(?!index\\.ts$)') },
  // A module's files, at each depth: another module's files are out of reach, its own are not.
  ...SERVER_MODULES.flatMap((name) =>
    [0, 1, 2, 3].map((depth) => ({
      files: [`src/server/${name}/${'*/'.repeat(depth)}*.ts`],
      rules: facePattern(`^(\\.\\./){${depth + 1}}(?!${name}/)[^/.][^/]*/(?!index\\.ts$)`),
    })),
  ),
];

export default defineConfig(
  { ignores: ['dist/', '.astro/', 'node_modules/', 'data/', 'coverage/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  ...astro.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      // TypeScript checks undefined names itself (and knows Astro's ambient types); see typescript-eslint's FAQ.
      'no-undef': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['src/components/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks, 'jsx-a11y': jsxA11y },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...jsxA11y.flatConfigs.recommended.rules,
      // Components never run server code: data flows route -> view, form -> action -> server. They may
      // name the server's types (`import type`), which vanish from the bundle; shared values live in src/domain.
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/server/*', '**/server/**'],
              allowTypeImports: true,
              message: 'Los componentes no importan src/server: reciben datos por props o llaman acciones.',
            },
          ],
        },
      ],
    },
  },
  ...serverFaces,
);
