import { describe, expect, it } from 'vitest';
import { chooseEncoding, etagMatches, urlPathsOf, type Encoding } from '../../src/server/http/static-files.ts';

const all = new Set<Encoding>(['br', 'gzip', 'identity']);

describe('chooseEncoding', () => {
  it('prefers brotli, then gzip, then the plain bytes, and honours q=0', () => {
    expect(chooseEncoding('gzip, deflate, br', all)).toBe('br');
    expect(chooseEncoding('gzip', all)).toBe('gzip');
    expect(chooseEncoding('br;q=0, gzip;q=0.5', all)).toBe('gzip');
    expect(chooseEncoding('br;q=0, gzip;q=0', all)).toBe('identity');
    expect(chooseEncoding('*', all)).toBe('br');
    expect(chooseEncoding('*;q=0, identity', all)).toBe('identity');
    expect(chooseEncoding(undefined, all)).toBe('identity');
    expect(chooseEncoding('deflate', all)).toBe('identity');
  });

  it('offers only what the file has', () => {
    expect(chooseEncoding('br, gzip', new Set<Encoding>(['gzip', 'identity']))).toBe('gzip');
    expect(chooseEncoding('br, gzip', new Set<Encoding>(['identity']))).toBe('identity');
  });
});

describe('etagMatches', () => {
  it('compares weakly across a list, and * matches', () => {
    expect(etagMatches('W/"abc"', 'W/"abc"')).toBe(true);
    expect(etagMatches('"abc"', 'W/"abc"')).toBe(true);
    expect(etagMatches('W/"x", W/"abc"', 'W/"abc"')).toBe(true);
    expect(etagMatches('*', 'W/"abc"')).toBe(true);
    expect(etagMatches('W/"abcd"', 'W/"abc"')).toBe(false);
  });
});

describe('urlPathsOf', () => {
  it('maps index files to their clean URL (trailingSlash never)', () => {
    expect(urlPathsOf('index.html')).toEqual(['/index.html', '/']);
    expect(urlPathsOf('servicios/index.html')).toEqual(['/servicios/index.html', '/servicios']);
    expect(urlPathsOf('_astro/a.css')).toEqual(['/_astro/a.css']);
  });
});
