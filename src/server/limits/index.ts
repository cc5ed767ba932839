/**
 * The face of src/server/limits: what other modules may use of it (issue 37's import rule).
 */

export { clearHits, reserveAlignedHit, reserveHit } from './counters.ts';
export { processLimits, withinCounterLimit, withinRateLimit } from './first-line.ts';
export { MemoryLimiter } from './memory.ts';
