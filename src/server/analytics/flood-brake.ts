/**
 * The beacon's brake under a flood. Counting a view costs next to nothing; answering the request that
 * carries it costs what serving a built page costs, so a client that posts beacons as fast as it can
 * would take the event loop's time from the pages. Past {@link BEACONS_PER_SECOND} beacons in a
 * second (per process), each further 204 is held for {@link HOLD_MS} before it is sent: the view is
 * still counted (under its network's own limit), and a flooding client, which waits for each answer
 * before its next request on a connection, slows to a few requests a second per connection. At most
 * {@link MAX_HELD} answers wait at once; past that they go out at once, so the brake never holds
 * unbounded memory. A visitor's beacon (sendBeacon does not wait for the answer) loses nothing.
 */

/** Beacons answered at once per second per process; real traffic stays far below it. */
export const BEACONS_PER_SECOND = 200;
/** How long an answer past the budget waits. */
export const HOLD_MS = 250;
/** Answers waiting at once, at most. */
export const MAX_HELD = 2000;

export class FloodBrake {
  private readonly perSecond: number;
  private readonly holdMs: number;
  private readonly maxHeld: number;
  private second = -1;
  private answered = 0;
  private waiting = 0;

  constructor(perSecond = BEACONS_PER_SECOND, holdMs = HOLD_MS, maxHeld = MAX_HELD) {
    this.perSecond = perSecond;
    this.holdMs = holdMs;
    this.maxHeld = maxHeld;
  }

  /** How long this beacon's answer waits, in ms: 0 within the second's budget or when the hold is full. */
  delayFor(nowMs: number): number {
    const second = Math.floor(nowMs / 1000);
    if (second !== this.second) {
      this.second = second;
      this.answered = 0;
    }
    this.answered += 1;
    return this.answered <= this.perSecond || this.waiting >= this.maxHeld ? 0 : this.holdMs;
  }

  /** Runs `answer` now, or after `delayFor`'s wait, counting it among the held ones meanwhile. */
  answer(nowMs: number, send: () => void): void {
    const delay = this.delayFor(nowMs);
    if (delay === 0) return send();
    this.waiting += 1;
    setTimeout(() => {
      this.waiting -= 1;
      send();
    }, delay);
  }

  /** Answers waiting now. */
  get held(): number {
    return this.waiting;
  }
}
