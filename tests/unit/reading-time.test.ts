import { describe, expect, it } from 'vitest';
import { readingLabel, readingMinutes } from '../../src/components/blog/reading-time.ts';

describe('readingMinutes', () => {
  it('counts words at 220 per minute, at least one minute', () => {
    expect(readingMinutes('hola')).toBe(1);
    expect(readingMinutes(Array(660).fill('palabra').join(' '))).toBe(3);
    expect(readingLabel(Array(880).fill('palabra').join(' '))).toBe('4 min de lectura');
  });

  it('counts the text of links and headings, not their Markdown syntax or URLs', () => {
    const markdown = '## Título\n\n- [AdmCloud](/producto/admcloud) y **más**\n\n'; // 4 words
    expect(readingMinutes(markdown.repeat(100))).toBe(Math.round(400 / 220));
    expect(readingMinutes(markdown.repeat(165))).toBe(3); // 660 words
  });
});
