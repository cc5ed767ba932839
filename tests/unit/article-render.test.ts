/**
 * An article's Markdown as public HTML (src/server/content/render.ts): the usual XSS payloads come out
 * as text or without their address, external links get rel="noopener noreferrer", and what an article
 * normally holds renders as Astro renders Markdown (heading ids, smart quotes, GFM tables).
 */
import sanitizeHtml from 'sanitize-html';
import { describe, expect, it } from 'vitest';
import { ARTICLE_HTML, isSafeUrl, renderArticleHtml } from '../../src/server/content/render.ts';

/** Every opening tag and attribute of the HTML, the way a browser's parser would see them (good enough for our assertions). */
const tags = (html: string) =>
  [...html.matchAll(/<([a-z][a-z0-9]*)\b([^>]*)>/gi)].map((match) => ({
    tag: match[1]!.toLowerCase(),
    attrs: match[2]!,
  }));

const PAYLOADS = [
  '<script>alert(1)</script>',
  '<SCRIPT SRC=https://evil.example/x.js></SCRIPT>',
  '<img src=x onerror=alert(1)>',
  '<svg onload=alert(1)>',
  '<iframe src="javascript:alert(1)"></iframe>',
  '<a href="javascript:alert(1)">clic</a>',
  '<div style="background:url(javascript:alert(1))">x</div>',
  '<math><mi xlink:href="javascript:alert(1)">x</mi></math>',
  '<!--<img src=x onerror=alert(1)>-->',
  '<style>@import "https://evil.example/x.css";</style>',
  '<form action="https://evil.example"><button>Enviar</button></form>',
  '<object data="data:text/html,<script>alert(1)</script>"></object>',
  '[clic](javascript:alert(1))',
  '[clic](JAVASCRIPT:alert(1))',
  '[clic](java\tscript:alert(1))',
  '[clic](&#106;avascript:alert(1))',
  '[clic](&#x6A;avascript&#x3A;alert(1))',
  '[clic](vbscript:msgbox(1))',
  '[clic](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)',
  '[clic](file:///etc/passwd)',
  '[ref][x]\n\n[x]: javascript:alert(1)',
  '<javascript:alert(1)>',
  '![x](javascript:alert(1))',
  '![x](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+)',
  '[clic](//evil.example/x)',
  '<a href="https://ok.example" onclick="alert(1)">x</a>',
  '[x](https://ok.example "a\\" onmouseover=\\"alert(1)")',
];

describe('article Markdown rendering', () => {
  it.each(PAYLOADS)('leaves no script, handler, style or unsafe address: %s', async (payload) => {
    const html = await renderArticleHtml(`Texto antes.\n\n${payload}\n\nTexto después.`);
    for (const { tag, attrs } of tags(html)) {
      expect(['p', 'a', 'img', 'em', 'strong', 'code', 'br']).toContain(tag);
      // Attribute names only: a quoted value (escaped by the serialiser) may say anything.
      const names = attrs.replace(/"[^"]*"/g, '""');
      expect(names).not.toMatch(/\son[a-z]+\s*=/i);
      expect(names).not.toMatch(/\sstyle\s*=/i);
      const address = /\s(?:href|src)="([^"]*)"/.exec(attrs)?.[1];
      if (address !== undefined) expect(address).toMatch(/^(https:\/\/ok\.example|\/[^/\\]|#|mailto:|tel:)/);
    }
    expect(html).not.toMatch(/<(script|iframe|svg|math|style|form|object|div)\b/i);
    expect(html).toContain('Texto después.');
  });

  it('shows raw HTML as the text it is', async () => {
    expect((await renderArticleHtml('Usa <b>negritas</b> así.')).trim()).toBe(
      '<p>Usa &lt;b&gt;negritas&lt;/b&gt; así.</p>',
    );
  });

  it('marks links to other sites rel="noopener noreferrer", not links inside the site', async () => {
    const html = await renderArticleHtml(
      '[DGII](https://dgii.gov.do/) y [contacto](/contacto) o [correo](mailto:info@example.com) y [arriba](#inicio)',
    );
    expect(html.trim()).toBe(
      '<p><a href="https://dgii.gov.do/" rel="noopener noreferrer">DGII</a> y <a href="/contacto">contacto</a> o <a href="mailto:info@example.com">correo</a> y <a href="#inicio">arriba</a></p>',
    );
  });

  it('renders what an article holds as Astro does: heading ids, smart quotes, lists, tables', async () => {
    const html = await renderArticleHtml(
      '## ¿Qué es "e-CF"?\n\n- uno\n- **dos**\n\n| A | B |\n|---|---|\n| 1 | 2 |',
    );
    expect(html).toContain('<h2 id="qué-es-e-cf">¿Qué es “e-CF”?</h2>');
    expect(html).toContain('<li><strong>dos</strong></li>');
    expect(html).toMatch(/<table>[\s\S]*<td>2<\/td>/);
  });

  it('tells a safe address from an unsafe one', () => {
    for (const ok of [
      'https://a.example',
      'http://a.example',
      '/blog/x',
      'blog/x',
      '#a',
      '?q=1',
      'mailto:a@b.example',
      'tel:+18095550000',
    ])
      expect(isSafeUrl(ok), ok).toBe(true);
    for (const bad of [
      'javascript:alert(1)',
      ' JavaScript:alert(1)',
      'java\nscript:alert(1)',
      'data:text/html,x',
      'vbscript:x',
      'file:///etc',
      '//evil.example',
      '\\\\evil',
      '',
    ])
      expect(isSafeUrl(bad), bad).toBe(false);
  });

  it('passes the HTML through an allow-list sanitiser that stops, on its own, what the safe mode is there for', () => {
    // HTML the parser never writes, as if the safe mode had let it through.
    const dirty = [
      '<p onclick="alert(1)">a</p>',
      '<a href="javascript:alert(1)">b</a>',
      '<a href="//evil.example/x">c</a>',
      '<img src="data:image/svg+xml;base64,PHN2Zz4=" onerror="alert(1)">',
      '<iframe src="https://evil.example"></iframe>',
      '<script>alert(1)</script>',
      '<td style="background:url(javascript:alert(1));text-align:center">d</td>',
      '<input type="text" name="clave">',
      '<code class="language-js x-evil">e</code>',
      '<div style="position:fixed">f</div>',
    ].join('');
    expect(sanitizeHtml(dirty, ARTICLE_HTML)).toBe(
      '<p>a</p><a>b</a><a>c</a><img /><td style="text-align:center">d</td><code class="language-js">e</code>f',
    );
  });
});
