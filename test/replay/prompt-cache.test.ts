import { describe, expect, it } from 'vitest';
import { priceRecorded, PromptCache, TTL_5M_MS, type CachedRequest } from '../../src/replay/prompt-cache.js';
import { wholeRegion } from '../../src/replay/request-body.js';

const bytes = (s: string): Uint8Array => new TextEncoder().encode(s);
const request = (region: string, timeMs: number, blocks = 1, ttl: '5m' | '1h' = '5m'): CachedRequest => ({
  region: wholeRegion(bytes(region)),
  blocks,
  model: 'claude-opus-4-6',
  timeMs,
  ttl,
  uncachedTokens: 0,
  outputTokens: 0,
});

describe('PromptCache', () => {
  it('should write everything on the first request and read the shared prefix on the next', () => {
    // Arrange: 1 token per byte, a 100-token prefix
    const cache = new PromptCache(1, 100);

    // Act
    const first = cache.send(request('aaaa', 0));
    const second = cache.send(request('aaaabb', 1000, 2));

    // Assert
    expect(first).toMatchObject({ cacheReadTokens: 0, cacheWriteTokens: 104 });
    expect(second).toMatchObject({ cacheReadTokens: 104, cacheWriteTokens: 2 });
  });

  it('should write again after the TTL has run out', () => {
    // Arrange
    const cache = new PromptCache(1, 100);
    cache.send(request('aaaa', 0));

    // Act
    const late = cache.send(request('aaaabb', TTL_5M_MS + 1, 2));

    // Assert
    expect(late).toMatchObject({ cacheReadTokens: 0, cacheWriteTokens: 106 });
  });

  it('should keep an entry alive with a 1-hour TTL', () => {
    // Arrange
    const cache = new PromptCache(1, 100);
    cache.send(request('aaaa', 0, 1, '1h'));

    // Act
    const later = cache.send(request('aaaabb', 30 * 60_000, 2, '1h'));

    // Assert
    expect(later.cacheReadTokens).toBe(104);
  });

  it('should price a shed epoch as a write of everything after the system prompt, then read the shorter body', () => {
    // Arrange: head H, a middle of M's, the recent window W; the shed body puts a stub S for the middle
    const cache = new PromptCache(1, 100);
    cache.send(request(`H${'M'.repeat(50)}WW`, 0, 3));
    cache.send(request(`H${'M'.repeat(50)}WWW`, 1000, 4));

    // Act
    const latch = cache.send(request('HS' + 'WWWW', 2000, 5));
    const after = cache.send(request('HS' + 'WWWWW', 3000, 6));

    // Assert: the latch reads the system prompt and tools only and writes the rest; the middle is never read again
    expect(latch).toMatchObject({ contextTokens: 106, cacheReadTokens: 100, cacheWriteTokens: 6 });
    expect(after).toMatchObject({ contextTokens: 107, cacheReadTokens: 106, cacheWriteTokens: 1 });
  });

  it('should read only the prefix when an earlier byte changed', () => {
    // Arrange
    const cache = new PromptCache(1, 100);
    cache.send(request('aaaa', 0));

    // Act
    const changed = cache.send(request('abaabb', 1000, 2));

    // Assert
    expect(changed).toMatchObject({ cacheReadTokens: 100, cacheWriteTokens: 6 });
  });

  it('should not find an entry beyond the 20-block lookback', () => {
    // Arrange
    const cache = new PromptCache(1, 100);
    cache.send(request('aaaa', 0, 1));

    // Act
    const far = cache.send(request('aaaabb', 1000, 30));

    // Assert
    expect(far.cacheReadTokens).toBe(100);
  });

  it('should price reads at 0.1x and 5-minute writes at 1.25x base input', () => {
    // Arrange: opus 4.6 is $5 per million input tokens
    const cache = new PromptCache(1, 0);
    cache.send(request('a'.repeat(1000), 0));

    // Act
    const priced = cache.send(request(`${'a'.repeat(1000)}bb`, 1000, 2));

    // Assert
    expect(priced.costUsd).toBeCloseTo((5 * (0.1 * 1000 + 1.25 * 2)) / 1e6, 12);
  });
});

describe('priceRecorded', () => {
  it('should price 1-hour writes at 2x and the rest at their rates', () => {
    // Act
    const cost = priceRecorded('claude-opus-4-6', { input: 10, cacheRead: 1000, cacheWrite: 300, cacheWrite1h: 100, output: 20 });

    // Assert
    expect(cost).toBeCloseTo((5 * (10 + 100 + 1.25 * 200 + 2 * 100) + 25 * 20) / 1e6, 12);
  });
});
