/**
 * Structured JSON logs (pino). Never log passwords, session tokens or whole message bodies.
 */
import pino, { type Logger } from 'pino';
import { getConfig } from './config.ts';

const LOG_KEY = Symbol.for('vertice.log');
type LogHolder = { [LOG_KEY]?: Logger };

export function getLogger(): Logger {
  const holder = globalThis as LogHolder;
  holder[LOG_KEY] ??= pino({
    level: getConfig().LOG_LEVEL,
    base: { service: 'web' },
    redact: {
      paths: ['password', '*.password', 'token', '*.token', 'cookie', '*.cookie', 'authorization'],
      censor: '[oculto]',
    },
  });
  return holder[LOG_KEY];
}
