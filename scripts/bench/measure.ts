/**
 * What the benchmarks measure alike (bench-mail.ts, bench-whatsapp.ts): a static page's request rate
 * from a process of its own (autocannon), and the percentiles and median of timings.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from '../../tests/support/server.ts';

/** The value at `share` (0.95: p95) of `values`, nearest rank; NaN for none. */
export const percentile = (values: number[], share: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(share * sorted.length) - 1))] ?? NaN;
};

/** The middle value (the mean of the two middle ones for an even count). */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/**
 * Requests per second of a static page over `seconds` (autocannon, 10 connections), measured from a
 * process of its own so that what the benchmark's own process sends does not slow the measuring side.
 */
export async function staticRate(url: string, seconds: number): Promise<number> {
  const child = spawn(
    process.execPath,
    [join(ROOT, 'node_modules/autocannon/autocannon.js'), '--json', '-c', '10', '-d', String(seconds), url],
    { stdio: ['ignore', 'pipe', 'ignore'] },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`autocannon terminó con el código ${code}`);
  const result = JSON.parse(output) as {
    non2xx: number;
    errors: number;
    duration: number;
    requests: { total: number };
  };
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`La página estática falló: ${result.non2xx} respuestas no 2xx, ${result.errors} errores`);
  return result.requests.total / result.duration;
}
