const spanishDate = new Intl.DateTimeFormat('es-DO', {
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  // Article dates are calendar days written as `YYYY-MM-DD` (midnight UTC): read them back in UTC.
  timeZone: 'UTC',
});

/** "3 de marzo de 2025". */
export function formatDateEs(date: Date): string {
  return spanishDate.format(date);
}

/** "2025-03-03", for `<time datetime>`. */
export function isoDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}
