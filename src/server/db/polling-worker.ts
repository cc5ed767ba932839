/**
 * The loop shared by the workers that send what a table holds for them (the mail outbox:
 * src/server/mail/outbox.ts; the channels' customer notices: src/server/channels/delivery-worker.ts).
 * Each round claims rows under a lease and sends them; the loop sleeps between rounds (shortly after a
 * round that found work, longer after an idle one), wakes early when a commit queued work (its channel
 * in notify.ts: this process's commits, on PostgreSQL every process's), keeps going when a round fails
 * (the database restarting), and at stop waits a grace period for the send under way, then has the
 * worker hand back what it still holds. What a row is, how it is claimed and sent, stays with the worker.
 */
import type { Logger } from 'pino';
import type { Db } from './index.ts';
import { listen } from './notify.ts';

export interface PollingWorkerOptions {
  name: string;
  db: Db;
  /** The notify.ts channel a commit that queued work notifies. */
  channel: string;
  /** One round: claims and sends; resolves with how many rows it attempted. */
  round: () => Promise<number>;
  /** Runs before each round of the loop (not before `runOnce`); its failure fails the round. */
  beforeRound?: () => Promise<unknown>;
  /** Pause after a round that found work, and after an idle round. */
  busyDelayMs: number;
  idleDelayMs: number;
  /** False: no loop, no listening; rounds run only through `runOnce()` (tests drive them step by step). */
  poll?: boolean;
  /** How long `stop()` waits for the round under way. */
  stopGraceMs: number;
  /** After the grace period ran out with a round still under way: hand back what it holds. */
  release: () => Promise<void>;
  /** The words logged when a round fails. */
  failureMessage: string;
  log?: Pick<Logger, 'info' | 'warn' | 'error'>;
}

export interface PollingWorker {
  name: string;
  /** One round now; resolves with how many rows were attempted. */
  runOnce(): Promise<number>;
  /** Ends the sleep early (work was just queued). */
  wake(): void;
  /** False once `stop()` was called: a round hands back the rows it has not started. */
  readonly running: boolean;
  /** Stops after the round under way, or after the grace period (then `release`). */
  stop(): Promise<void>;
}

/** Starts the loop; see {@link PollingWorker}. */
export function startPollingWorker(options: PollingWorkerOptions): PollingWorker {
  const { log } = options;
  const polling = options.poll !== false;
  let running = true;
  let wakeRequested = false;
  let interruptSleep: (() => void) | null = null;

  const wake = () => {
    wakeRequested = true;
    interruptSleep?.();
  };

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      if (wakeRequested || !running) return resolve();
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        interruptSleep = null;
        resolve();
      }
      interruptSleep = done;
    });

  const unlisten = polling
    ? listen(options.db, options.channel, wake).catch((error: unknown) => {
        // The timer still finds the work: a worker that cannot listen is only slower.
        log?.warn({ err: error, worker: options.name }, 'worker cannot listen for work');
        return async () => {};
      })
    : null;

  const loop = (async () => {
    while (running && polling) {
      wakeRequested = false;
      let attempted = 0;
      try {
        await options.beforeRound?.();
        attempted = await options.round();
      } catch (error) {
        // The database may be restarting; keep polling, it recovers by itself.
        log?.error({ error: error instanceof Error ? error.message : String(error) }, options.failureMessage);
      }
      if (!running) break;
      await sleep(attempted > 0 ? options.busyDelayMs : options.idleDelayMs);
    }
  })();

  return {
    name: options.name,
    runOnce: () => options.round(),
    wake,
    get running() {
      return running;
    },
    async stop() {
      running = false;
      interruptSleep?.();
      const unlistened = unlisten?.then((stop) => stop());
      let timer: NodeJS.Timeout | undefined;
      const graceOver = new Promise<'grace-over'>(
        (resolve) => (timer = setTimeout(() => resolve('grace-over'), options.stopGraceMs)),
      );
      const outcome = await Promise.race([loop, graceOver]);
      clearTimeout(timer);
      if (outcome === 'grace-over') await options.release();
      await unlistened;
    },
  };
}
