/**
 * The rules of a new staff password, in one place (the settings page checks them before Better Auth
 * stores the hash): 12 to 256 characters, not the current one, and not guessable — zxcvbn-ts with the
 * common password and diceware lists plus the Spanish dictionaries, told the staff member's name and
 * e-mail, must score it at least {@link MIN_SCORE} ("safely unguessable": about 10^10 guesses).
 */
import type { ZxcvbnFactory } from '@zxcvbn-ts/core';
import { createRequire } from 'node:module';

export const MIN_PASSWORD_LENGTH = 12;
export const MAX_PASSWORD_LENGTH = 256;
export const MIN_SCORE = 3;

let factory: ZxcvbnFactory | undefined;
/**
 * Loaded and built on first use: the packages unpack their dictionaries when loaded (about 0.1 s of
 * CPU), which a server start and most requests do not need.
 */
function estimator(): ZxcvbnFactory {
  if (!factory) {
    const load = createRequire(import.meta.url);
    const { ZxcvbnFactory: Factory } = load('@zxcvbn-ts/core') as typeof import('@zxcvbn-ts/core');
    const common = load('@zxcvbn-ts/language-common') as typeof import('@zxcvbn-ts/language-common');
    const spanish = load('@zxcvbn-ts/language-es-es') as typeof import('@zxcvbn-ts/language-es-es');
    factory = new Factory({
      graphs: common.adjacencyGraphs,
      dictionary: { ...common.dictionary, ...spanish.dictionary },
    });
  }
  return factory;
}

/** The words of a person's name and e-mail that a guesser would try first. */
export function personalWords(name: string, email: string): string[] {
  const [local = '', domain = ''] = email.toLowerCase().split('@');
  const nameWords = name.split(/\s+/);
  const words = [
    name,
    nameWords.join(''),
    email,
    local,
    local.replace(/[._+-]+/g, ''),
    domain,
    ...nameWords,
    ...local.split(/[._+-]+/),
    ...domain.split('.'),
  ];
  const lower = words.map((word) => word.trim().toLowerCase());
  // Also without accents: 'Martínez' is typed 'Martinez' as often as not.
  const plain = lower.map((word) => word.normalize('NFD').replace(/\p{M}/gu, ''));
  return [...new Set([...lower, ...plain].filter((word) => word.length >= 3))];
}

export type PasswordProblem = 'too-short' | 'too-long' | 'same-as-current' | 'weak';

export const PASSWORD_PROBLEM_MESSAGES: Record<PasswordProblem, string> = {
  'too-short': `La nueva contraseña debe tener al menos ${MIN_PASSWORD_LENGTH} caracteres.`,
  'too-long': `La nueva contraseña no puede tener más de ${MAX_PASSWORD_LENGTH} caracteres.`,
  'same-as-current': 'La nueva contraseña debe ser distinta de la actual.',
  weak: 'Esa contraseña es demasiado común o fácil de adivinar (por ejemplo, por parecerse a tu nombre o tu correo). Usa una frase de varias palabras poco relacionadas.',
};

export interface PasswordCandidate {
  password: string;
  current: string;
  name: string;
  email: string;
}

/** The first rule the new password breaks, or null when it may be used. */
export function passwordProblem({
  password,
  current,
  name,
  email,
}: PasswordCandidate): PasswordProblem | null {
  const length = [...password].length;
  if (length < MIN_PASSWORD_LENGTH) return 'too-short';
  if (length > MAX_PASSWORD_LENGTH) return 'too-long';
  if (password === current) return 'same-as-current';
  // zxcvbn's cost grows with the length; past 100 characters the first 100 say enough.
  const result = estimator().check(
    password.slice(0, 100),
    [...personalWords(name, email), current].filter(Boolean),
  );
  return result.score < MIN_SCORE ? 'weak' : null;
}
