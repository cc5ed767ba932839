/**
 * The pace at which this process reads files posted to it, all uploads together (`UPLOAD_MB_PER_SECOND`,
 * issue 21, "Speed"): a token bucket shared by every upload. A chunk that finds the bucket empty waits
 * for its share, and while it waits the body is not read: the pause reaches the socket, so the sender
 * waits too and neither side spends CPU on it. Twenty 10 MB uploads at once then take the time they
 * need at that pace instead of the whole machine, and the pages beside them stay fast; one upload from a
 * customer's connection is far below it.
 */
import { Transform, type TransformCallback } from 'node:stream';

/** One second's worth may come in a burst. */
const BURST_SECONDS = 1;

export class UploadPace {
  readonly #bytesPerSecond: number;
  /**
   * The moment (performance.now(), ms) until which the bytes taken so far are paid for: the bucket holds
   * what the time from then until now is worth, at most a burst.
   */
  #paidUntil = -Infinity;

  constructor(megabytesPerSecond: number) {
    this.#bytesPerSecond = megabytesPerSecond * 1_000_000;
  }

  /** Milliseconds to wait before `bytes` more may be read (0 when the bucket has them). */
  take(bytes: number, now: number = performance.now()): number {
    const start = Math.max(this.#paidUntil, now - BURST_SECONDS * 1000);
    this.#paidUntil = start + (bytes / this.#bytesPerSecond) * 1000;
    return Math.max(0, this.#paidUntil - now);
  }

  /** A pass-through stream that holds each chunk until the pace allows it. */
  stream(): Transform {
    return new Transform({
      transform: (chunk: Buffer, _encoding, callback: TransformCallback) => {
        const wait = this.take(chunk.length);
        if (wait <= 0) callback(null, chunk);
        else setTimeout(() => callback(null, chunk), wait);
      },
    });
  }
}
