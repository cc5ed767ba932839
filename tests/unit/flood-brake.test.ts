/**
 * The beacon's flood brake (src/server/analytics/flood-brake.ts): answers within the second's budget
 * go out at once, the rest wait, the budget starts again each second, and no more than the cap wait.
 */
import { describe, expect, it } from 'vitest';
import { FloodBrake } from '../../src/server/analytics/flood-brake.ts';

describe('beacon flood brake', () => {
  it('answers the first beacons of each second at once and holds the rest', () => {
    const brake = new FloodBrake(3, 250, 100);
    const second = 1_700_000_000_000;
    expect([0, 10, 20, 30, 40].map((ms) => brake.delayFor(second + ms))).toEqual([0, 0, 0, 250, 250]);
    // A new second, a new budget.
    expect([1000, 1001, 1002, 1003].map((ms) => brake.delayFor(second + ms))).toEqual([0, 0, 0, 250]);
  });

  it('sends held answers after the wait, and never holds more than the cap at once', async () => {
    const brake = new FloodBrake(1, 20, 2);
    const now = Date.now();
    const sent: number[] = [];
    for (let index = 0; index < 5; index += 1) brake.answer(now, () => sent.push(index));
    // The first within budget, the next two held, the last two past the cap: sent at once.
    expect(sent).toEqual([0, 3, 4]);
    expect(brake.held).toBe(2);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(sent.sort()).toEqual([0, 1, 2, 3, 4]);
    expect(brake.held).toBe(0);
  });
});
