import { describe, expect, it } from 'vitest';
import { clientNetwork } from '../../src/server/http/client-network.ts';
import { MemoryLimiter } from '../../src/server/limits/memory.ts';

describe('client network', () => {
  it('is the address itself for IPv4, also when a dual-stack socket reports it mapped into IPv6', () => {
    expect(clientNetwork('203.0.113.9')).toBe('203.0.113.9');
    expect(clientNetwork('::ffff:203.0.113.9')).toBe('203.0.113.9');
  });

  it('is the /64 for IPv6, however the address is written', () => {
    expect(clientNetwork('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64');
    expect(clientNetwork('2001:0db8:0001:0002:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64');
    expect(clientNetwork('2001:db8:1:3::1')).not.toBe(clientNetwork('2001:db8:1:2::1'));
  });

  it('keeps what is not an address as it came (never throws)', () => {
    expect(clientNetwork('unknown')).toBe('unknown');
    expect(clientNetwork('')).toBe('unknown');
  });
});

describe('memory limiter', () => {
  it('counts a fixed window per key and starts again when it ends', () => {
    const limiter = new MemoryLimiter();
    const results = Array.from({ length: 4 }, () => limiter.hit('k', 3, 1000, 0));
    expect(results).toEqual([true, true, true, false]);
    expect(limiter.exhausted('k', 3, 1000, 500)).toBe(true);
    expect(limiter.hit('other', 3, 1000, 500)).toBe(true);
    expect(limiter.hit('k', 3, 1000, 1000)).toBe(true);
  });

  it('remembers at most its number of keys', () => {
    const limiter = new MemoryLimiter(2);
    limiter.hit('a', 1, 1000, 0);
    limiter.hit('b', 1, 1000, 0);
    limiter.hit('c', 1, 1000, 0);
    // 'a', the oldest, was forgotten: it starts afresh.
    expect(limiter.hit('a', 1, 1000, 1)).toBe(true);
    expect(limiter.exhausted('c', 1, 1000, 1)).toBe(true);
  });

  it('stays bounded under a flood of new keys, dropping the expired ones first', () => {
    const limiter = new MemoryLimiter(1000);
    limiter.hit('kept', 1, 60_000, 0);
    for (let key = 0; key < 20_000; key += 1) limiter.hit(`short-${key}`, 1, 10, key);
    expect(limiter.size).toBeLessThanOrEqual(1000);
    // The oldest key, but its window is still open: the expired ones went instead.
    expect(limiter.exhausted('kept', 1, 60_000, 20_000)).toBe(true);
    for (let key = 0; key < 500; key += 1) limiter.hit(`late-${key}`, 1, 10, 30_000);
    expect(limiter.size).toBeLessThanOrEqual(1000);
  });

  it('takes a window another counter reports, and answers from it until that window ends', () => {
    const limiter = new MemoryLimiter();
    limiter.record('k', 1000, 5, 600, 1500);
    expect(limiter.exhausted('k', 5, 600, 1599)).toBe(true);
    expect(limiter.used('k', 600, 1599)).toBe(5);
    expect(limiter.exhausted('k', 5, 600, 1600)).toBe(false);
    // A window already over is not taken.
    limiter.record('old', 0, 9, 600, 700);
    expect(limiter.size).toBe(1);
  });
});
