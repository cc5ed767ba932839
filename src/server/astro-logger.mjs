/**
 * Astro's own log lines (a route that threw, an adapter warning) as JSON lines of the server's pino
 * logger, so `npm start` prints one format only. Plain JavaScript: Astro loads it outside Vite at
 * build time. The logger is found on `globalThis` (src/server/log.ts puts it there) because the
 * bundled server and the start script hold separate copies of our modules; without one (the build,
 * the dev server) lines go to the console as usual. Query strings are cut from the URLs Astro
 * quotes: they may carry personal data.
 */
const LOG_KEY = Symbol.for('vertice.log');
const ANSI = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g');
const QUERY = /(\bhttps?:\/\/[^\s?#]+|\s\/[^\s?#]*)\?[^\s#]*/g;

export default function astroLogger() {
  return {
    write(event) {
      const message = String(event.message).replace(ANSI, '').replace(QUERY, '$1');
      const log = globalThis[LOG_KEY];
      if (!log) {
        const line = event.label ? `[${event.label}] ${message}` : message;
        (event.level === 'error' ? console.error : console.info)(line);
        return;
      }
      const level =
        event.level === 'error' || event.level === 'warn' || event.level === 'debug' ? event.level : 'info';
      log[level]({ source: 'astro', label: event.label ?? undefined }, message);
    },
  };
}
