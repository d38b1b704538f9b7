import { describe, expect, it } from 'vitest';
import type { RecordedUsage } from '../../src/replay/rebuild-conversations.js';
import { conversationTtls, isBilledWarm, isPredictedWarm, ttlOfUsage } from '../../src/replay/ttl-rules.js';

const usage = (over: Partial<RecordedUsage>): RecordedUsage => ({ input: 1, cacheRead: 0, cacheWrite: 0, cacheWrite1h: 0, output: 1, ...over });
const MIN = 60_000;

describe('ttlOfUsage', () => {
  it.each([
    { name: '5-minute writes', u: usage({ cacheWrite: 100 }), ttl: '5m' },
    { name: '1-hour writes', u: usage({ cacheWrite: 100, cacheWrite1h: 100 }), ttl: '1h' },
    { name: 'both (the 5-minute breakpoint comes last)', u: usage({ cacheWrite: 100, cacheWrite1h: 60 }), ttl: '5m' },
    { name: 'no writes', u: usage({ cacheRead: 100 }), ttl: undefined },
  ])('should read $name as $ttl', ({ u, ttl }) => {
    // Act / Assert
    expect(ttlOfUsage(u)).toBe(ttl);
  });
});

describe('isPredictedWarm', () => {
  it('should keep a 5-minute entry warm up to 5 minutes and not a second longer', () => {
    // Act / Assert
    expect(isPredictedWarm(5 * MIN - 1000, '5m')).toBe(true);
    expect(isPredictedWarm(5 * MIN, '5m')).toBe(true);
    expect(isPredictedWarm(5 * MIN + 1000, '5m')).toBe(false);
  });

  it('should keep a 1-hour entry warm for the hour', () => {
    // Act / Assert
    expect(isPredictedWarm(59 * MIN, '1h')).toBe(true);
    expect(isPredictedWarm(61 * MIN, '1h')).toBe(false);
  });
});

describe('isBilledWarm', () => {
  it('should call a read of at least 90% of the previous cached prefix warm, and less cold', () => {
    // Arrange: the previous request left 1000 tokens cached
    const previous = usage({ cacheRead: 600, cacheWrite: 400 });

    // Act / Assert
    expect(isBilledWarm(previous, usage({ cacheRead: 1000, cacheWrite: 50 }))).toBe(true);
    expect(isBilledWarm(previous, usage({ cacheRead: 900, cacheWrite: 150 }))).toBe(true);
    expect(isBilledWarm(previous, usage({ cacheRead: 899, cacheWrite: 151 }))).toBe(false);
    expect(isBilledWarm(previous, usage({ cacheRead: 200, cacheWrite: 850 }))).toBe(false);
  });
});

describe('conversationTtls', () => {
  it("should give a request that wrote nothing its conversation's TTL, the body's TTL first, and 5 minutes when nothing says", () => {
    // Arrange: reads only, 1-hour writes, reads only, 5-minute writes
    const usages = [usage({ cacheRead: 9 }), usage({ cacheWrite: 5, cacheWrite1h: 5 }), usage({ cacheRead: 9 }), usage({ cacheWrite: 5 })];

    // Act / Assert
    expect(conversationTtls(usages)).toEqual(['1h', '1h', '1h', '5m']);
    expect(conversationTtls(usages, [undefined, undefined, '5m'])).toEqual(['1h', '1h', '5m', '5m']);
    expect(conversationTtls([usage({ cacheRead: 9 })])).toEqual(['5m']);
  });
});
