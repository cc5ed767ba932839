import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { minifyPageScript } from '../../src/lib/inline-script.ts';

describe('page scripts minified by esbuild', () => {
  it('drops comments but keeps comment-looking text inside strings, which a pattern could not tell apart', () => {
    const source = `// a leading remark\nconst url = 'https://example.com/*not a comment*/'; /* block */\nconst line = "a // b";\nwindow.__x = [url, line];\n`;
    const out = minifyPageScript(source);
    expect(out).not.toContain('leading remark');
    expect(out).not.toContain('block');
    expect(out).toContain('https://example.com/*not a comment*/');
    expect(out).toContain('a // b');
    // It still runs, and does what the source did.
    const scope: { __x?: unknown } = {};
    new Function('window', out)(scope);
    expect(scope.__x).toEqual(['https://example.com/*not a comment*/', 'a // b']);
  });

  it('minifies every page script of src/scripts into valid, smaller code', () => {
    const dir = new URL('../../src/scripts/', import.meta.url);
    for (const file of readdirSync(dir).filter((name) => name.endsWith('.ts'))) {
      const source = readFileSync(new URL(file, dir), 'utf8');
      const out = minifyPageScript(source);
      expect(out.length, file).toBeLessThan(source.length);
      expect(() => new Function(out), file).not.toThrow();
    }
  });
});

describe('frame script', () => {
  it('sends the beacon to the route routes.ts names', async () => {
    const { ROUTES } = await import('../../src/routes.ts');
    const source = readFileSync(
      new URL('../../src/components/site/frame-behaviour.ts', import.meta.url),
      'utf8',
    );
    expect(source).toContain(`navigator.sendBeacon?.('${ROUTES.beacon}', location.pathname)`);
  });
});
