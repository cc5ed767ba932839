/** Minutes a reader needs for a Markdown text, at 220 words per minute (never less than 1). */
export function readingMinutes(markdown: string): number {
  const words = markdown
    .replace(/```[\s\S]*?```/g, ' ')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[#>*_`|-]/g, ' ')
    .split(/\s+/)
    .filter(Boolean).length;
  return Math.max(1, Math.round(words / 220));
}

/** "4 min de lectura". */
export function readingLabel(markdown: string): string {
  return `${readingMinutes(markdown)} min de lectura`;
}
