/**
 * Issue 20 §3, beyond the mails (tests/unit/mail-words.test.ts): every text the site, the staff pages and
 * the commands show speaks to its reader with 'tú'. The source of src/ and scripts/ (comments left out)
 * is searched for the words only 'usted' uses: its pronoun and its imperatives. The modules of the mails
 * to a client's representative, formal throughout by the rule, are left out; so are a few words
 * that are not ours (a customer's own text seeded by a benchmark), each named below with its place.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/server.ts';

/** 'usted' and imperatives that only 'usted' uses (the 'tú' form differs: guárdalo, vuelve, elige…). */
const USTED = [
  'usted',
  'ustedes',
  'asegúrese',
  'borre',
  'compruebe',
  'consulte',
  'contáctenos',
  'copie',
  'defina',
  'detenga',
  'disculpe',
  'ejecute',
  'elija',
  'envíenos',
  'escriba',
  'escríbanos',
  'espere',
  'guárdelo',
  'haga',
  'indique',
  'ingrese',
  'instálelo',
  'intente',
  'introduzca',
  'llámenos',
  'pídalo',
  'recuerde',
  'revise',
  'seleccione',
  'úselo',
  'verifique',
  'vuelva',
];

/** Formal by rule: the welcome mail and the meeting mails to a client's representative. */
const FORMAL = [
  'src/server/mail/welcome-mail.ts',
  'src/server/mail/welcome-steps.ts',
  'src/server/mail/meeting-mails.ts',
];

/** Words that are not the site's own voice, by file. */
const NOT_OURS: Record<string, string[]> = {
  // A customer's message, as customers write them, in the search benchmark's seeded data.
  'scripts/bench/search.ts': ['intente'],
};

/** The source files under `dir` (src/ or scripts/), by their path from the project's root. */
function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.(ts|tsx|astro|mjs)$/.test(file))
    .map((file) => `${dir}/${file}`);
}

/** The file's text without its comments (line, block, JSX and HTML ones), its lines where they were. */
function withoutComments(text: string): string {
  const blank = (comment: string) => comment.replace(/[^\n]/g, ' ');
  return text
    .replace(/\/\*[\s\S]*?\*\//g, blank)
    .replace(/<!--[\s\S]*?-->/g, blank)
    .replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
}

/** The 'usted' words of each file, with their lines. */
function formalWords(): Record<string, string[]> {
  const found: Record<string, string[]> = {};
  for (const path of [...sources('src'), ...sources('scripts')]) {
    if (FORMAL.includes(path) || path.endsWith('.test.ts')) continue;
    const allowed = NOT_OURS[path] ?? [];
    withoutComments(readFileSync(join(ROOT, path), 'utf8'))
      .split('\n')
      .forEach((line, index) => {
        for (const word of line.toLowerCase().match(/\p{L}+/gu) ?? []) {
          if (USTED.includes(word) && !allowed.includes(word))
            (found[path] ??= []).push(`${index + 1}: ${word}`);
        }
      });
  }
  return found;
}

describe("the site's, the staff pages' and the commands' texts", () => {
  it("say 'tú', never 'usted' (outside the mails to a client's representative)", () => {
    expect(formalWords()).toEqual({});
  });

  it('would catch a formal word in a message, in markup or in a template literal', () => {
    const sample = [
      "const a = 'En Excel, guárdelo como CSV';",
      '<p>Escríbanos si algo falla</p>',
      'const b = `Ya existe ${target}; elija otro nombre.`;',
      '// un comentario que dice usted no cuenta',
    ].join('\n');
    const words =
      withoutComments(sample)
        .toLowerCase()
        .match(/\p{L}+/gu) ?? [];
    expect(words.filter((word) => USTED.includes(word))).toEqual(['guárdelo', 'escríbanos', 'elija']);
  });
});
