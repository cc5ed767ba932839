/**
 * The tiny page scripts of src/scripts/ are inlined into the HTML, so their comments and indentation
 * would travel with every page view. This drops both: block comments, whole-line `//` comments,
 * leading indentation and blank lines. Line breaks stay, so automatic semicolon insertion reads the
 * code exactly as written. The scripts are our own and contain no comment-like text in strings.
 *
 * src/lib/page-scripts.ts applies it to every page script; astro.config.ts hashes the same output for
 * the Content-Security-Policy.
 */
export function compactScript(source: string): string {
  return source
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('//'))
    .join('\n');
}
