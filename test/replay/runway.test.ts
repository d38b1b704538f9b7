import { describe, expect, it } from 'vitest';
import { RunwayCounter, withRatios } from '../../src/replay/runway.js';

describe('RunwayCounter', () => {
  it('should end at the first request whose count reaches the compaction point', () => {
    // Arrange
    const counter = new RunwayCounter(1000);

    // Act
    for (const countTokens of [200, 500, 999, 1000, 1200]) counter.add({ refused: false, countTokens });

    // Assert: the fourth reached 1,000, the client compacts after it
    expect(counter.finish(100)).toEqual({ requests: 4, end: 'compaction_point' });
  });

  it('should end before a refused request', () => {
    // Arrange
    const counter = new RunwayCounter(1000);

    // Act
    counter.add({ refused: false, countTokens: 300 });
    counter.add({ refused: false, countTokens: 600 });
    counter.add({ refused: true });
    counter.add({ refused: false, countTokens: 1500 });

    // Assert: two answered; the third was refused and the client compacts then
    expect(counter.finish(100)).toEqual({ requests: 2, end: 'refusal' });
  });

  it('should estimate the requests left to the point at the growth given when the conversation ended first', () => {
    // Arrange
    const counter = new RunwayCounter(1000);

    // Act
    for (const countTokens of [100, 200, 300]) counter.add({ refused: false, countTokens });

    // Assert: 700 tokens left at 100 a request is 7 more than the 3 seen
    expect(counter.finish(100)).toEqual({ requests: 10, end: 'extrapolated' });
    expect(counter.finish(0)).toEqual({ requests: 3, end: 'not_reached' });
    expect(counter.finish(100, { recordedEnd: 'recorded_compaction' })).toEqual({ requests: 3, end: 'recorded_compaction' });
    // Run to the recorded last count instead: 300 is there already
    expect(counter.finish(100, { targetTokens: 300 })).toEqual({ requests: 3, end: 'compaction_point' });
    expect(counter.finish(100, { targetTokens: 550 })).toEqual({ requests: 6, end: 'extrapolated' });
  });
});

describe('withRatios', () => {
  it('should give each runway its ratio to the recorded one', () => {
    // Act
    const runways = withRatios(
      { recorded: { requests: 40, end: 'recorded_compaction' }, shed: { requests: 90, end: 'extrapolated' }, rescue: { requests: 30, end: 'refusal' } },
      'recorded',
    );

    // Assert
    expect(runways.recorded.ratio).toBe(1);
    expect(runways.shed).toEqual({ requests: 90, end: 'extrapolated', ratio: 2.25 });
    expect(runways.rescue.ratio).toBe(0.75);
  });

  it('should give no ratio against a recorded runway of nothing', () => {
    // Act
    const runways = withRatios({ recorded: { requests: 0, end: 'refusal' }, shed: { requests: 3, end: 'compaction_point' } }, 'recorded');

    // Assert
    expect(runways.shed.ratio).toBeNull();
  });
});
