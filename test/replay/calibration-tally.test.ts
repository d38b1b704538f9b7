import { describe, expect, it } from 'vitest';
import { CalibrationTally } from '../../src/replay/calibration-tally.js';
import type { PricedRequest } from '../../src/replay/prompt-cache.js';
import type { RebuiltRequest } from '../../src/replay/rebuild-conversations.js';

function request(id: string, cacheRead: number, cacheWrite: number): RebuiltRequest {
  return {
    id,
    messages: [],
    model: 'claude-opus-4-6',
    timeMs: 0,
    sentMs: 0,
    usage: { input: 10, cacheRead, cacheWrite, cacheWrite1h: 0, output: 5 },
    blocks: 0,
  };
}

function modelled(cacheReadTokens: number, cacheWriteTokens: number): PricedRequest {
  return {
    contextTokens: 10 + cacheReadTokens + cacheWriteTokens,
    cacheReadTokens,
    cacheWriteTokens,
    uncachedTokens: 10,
    outputTokens: 5,
    costUsd: 0,
    priced: true,
  };
}

describe('CalibrationTally', () => {
  it('should sum the model against the record and count the misses the transcript cannot explain', () => {
    // Arrange: the second request read 1,000 tokens in the model but none as recorded.
    const tally = new CalibrationTally();
    const first = request('r1', 0, 1000);
    const second = request('r2', 0, 2000);
    const common = { conversation: 'a#0', main: true, window: 10_000, beforeTtl: '5m' as const };

    // Act
    tally.add({ ...common, request: first, before: undefined, modelled: modelled(0, 1000) });
    tally.add({ ...common, request: second, before: first, modelled: modelled(1000, 1000) });
    const calibration = tally.calibration({ tokensPerByte: 0.25, prefixTokens: new Map([['a#0', 100.4]]) });

    // Assert
    expect(calibration).toMatchObject({
      cacheReadError: 0,
      cacheWriteError: -0.3333,
      contextError: 0,
      meanAbsRequestError: 0,
      tokensPerByte: 0.25,
      unexplainedMisses: { requests: 1, extraWriteTokens: 1000 },
      prefixTokens: { 'a#0': 100 },
      recorded: { cacheReadTokens: 0, cacheWriteTokens: 3000, uncachedTokens: 20, peakFullness: 0.201 },
    });
    expect(calibration.recorded.costUsd).toBeGreaterThan(0);
  });
});
