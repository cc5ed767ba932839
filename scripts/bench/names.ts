/** Dominican first names and surnames the benchmarks' seeded incidents, messages and clients are given. */
export const FIRST = [
  'José',
  'María',
  'Ana',
  'Pedro',
  'Luis',
  'Carmen',
  'Rafael',
  'Yolanda',
  'Juan',
  'Altagracia',
];
export const LAST = [
  'Pérez',
  'Gómez',
  'Núñez',
  'Rodríguez',
  'Martínez',
  'Santos',
  'Reyes',
  'Almonte',
  'Báez',
  'Castillo',
];
