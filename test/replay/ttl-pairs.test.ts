import { describe, expect, it } from 'vitest';
import { pairRequests } from '../../src/replay/ttl-pairs.js';
import { conv, req } from './ttl-fixtures.js';

const judged = (conversations: Parameters<typeof pairRequests>[0]): Array<[string, string, number, boolean, boolean]> =>
  pairRequests(conversations).pairs.map((p) => [p.next.id, p.kind, Math.round(p.gapMs / 1000), p.predictedWarm, p.billedWarm]);

describe('pairRequests', () => {
  it('should predict warm just under the 5-minute TTL and cold just over it', () => {
    // Arrange: each request reads all the previous one left cached, except the last, which re-writes it
    const c = conv('c', [req('r0', 0, 0, 1000), req('r1', 4 + 59 / 60, 1000, 100), req('r2', 10, 0, 1200)]);

    // Act / Assert: 4:59 then 5:01
    expect(judged([c])).toEqual([
      ['r1', 'turn', 299, true, true],
      ['r2', 'turn', 301, false, false],
    ]);
  });

  it("should keep a 1-hour entry warm for 30 minutes, and take a request that wrote nothing at its conversation's TTL", () => {
    // Arrange: r1 reads everything and writes nothing; r2 comes 59 minutes after r1
    const c = conv('c', [req('r0', 0, 0, 1000, { ttl: '1h' }), req('r1', 30, 1000, 0), req('r2', 89, 1000, 50, { ttl: '1h' })]);

    // Act
    const { pairs } = pairRequests([c]);

    // Assert
    expect(pairs.map((p) => [p.ttl, p.predictedWarm])).toEqual([
      ['1h', true],
      ['1h', true],
    ]);
  });

  it('should refresh an entry each time a request reads it', () => {
    // Arrange: two later files resume from a0; b1 reads a0's entry at minute 4, c1 comes at minute 8
    const a = conv('a', [req('a0', 0, 0, 1000)], { session: 'a.jsonl' });
    const b = conv('b', [req('a0', 0, 0, 1000), req('b1', 4, 1000, 10)], { session: 'b.jsonl' });
    const c = conv('c', [req('a0', 0, 0, 1000), req('c1', 8, 1000, 10)], { session: 'c.jsonl' });

    // Act / Assert: 4 minutes since b1's read, not 8 since a0's write
    expect(judged([a, b, c])).toEqual([
      ['b1', 'resume', 240, true, true],
      ['c1', 'resume', 240, true, true],
    ]);
  });

  it('should not refresh an entry on a request that did not read it', () => {
    // Arrange: as above, but b1 re-wrote everything
    const a = conv('a', [req('a0', 0, 0, 1000)], { session: 'a.jsonl' });
    const b = conv('b', [req('a0', 0, 0, 1000), req('b1', 4, 0, 1010)], { session: 'b.jsonl' });
    const c = conv('c', [req('a0', 0, 0, 1000), req('c1', 8, 1000, 10)], { session: 'c.jsonl' });

    // Act / Assert
    expect(judged([a, b, c])).toEqual([
      ['b1', 'resume', 240, true, false],
      ['c1', 'resume', 480, false, true],
    ]);
  });

  it('should pair the first new request of a resumed file with the last one it copied, whatever the file order', () => {
    // Arrange: the resumed file is listed first; it copies a0 and a1, then b2 comes three hours later
    const a = conv('a', [req('a0', 0, 0, 1000), req('a1', 1, 1000, 100)], { session: 'a.jsonl' });
    const b = conv('b', [req('a0', 0, 0, 1000), req('a1', 1, 1000, 100), req('b2', 181, 0, 1200)], { session: 'b.jsonl' });

    // Act
    const paired = pairRequests([b, a]);

    // Assert
    expect(paired.pairs.map((p) => [p.previous.id, p.next.id, p.kind, p.session, p.predictedWarm, p.billedWarm])).toEqual([
      ['a0', 'a1', 'turn', 'a.jsonl', true, true],
      ['a1', 'b2', 'resume', 'b.jsonl', false, false],
    ]);
    expect(paired.skipped.copy).toBe(2);
    expect(paired.requests).toBe(3);
  });

  it('should continue the main thread into its compaction call', () => {
    // Arrange
    const main = conv('main', [req('m0', 0, 0, 1000), req('m1', 1, 1000, 100)]);
    const compaction = conv('k', [req('k0', 2, 1100, 30)], { kind: 'subagent', compaction: true });
    const after = conv('main2', [req('n0', 3, 200, 500)]);

    // Act
    const paired = pairRequests([main, after, compaction]);

    // Assert: the conversation after the compaction starts afresh
    expect(paired.pairs.map((p) => [p.previous.id, p.next.id, p.kind])).toEqual([
      ['m0', 'm1', 'turn'],
      ['m1', 'k0', 'compaction'],
    ]);
    expect(paired.starts).toBe(2);
  });

  it('should not judge a change of model, a request after nothing cached, or one without a time', () => {
    // Arrange
    const c = conv('c', [
      req('r0', 0, 0, 1000),
      req('r1', 1, 0, 1100, { model: 'claude-haiku-4-5' }),
      req('r2', 2, 0, 0, { model: 'claude-haiku-4-5' }),
      req('r3', 3, 0, 1200, { model: 'claude-haiku-4-5' }),
      { ...req('r4', 4, 1200, 10, { model: 'claude-haiku-4-5' }), sentMs: Number.NaN },
    ]);

    // Act
    const paired = pairRequests([c]);

    // Assert
    expect(paired.pairs.map((p) => p.next.id)).toEqual(['r2']);
    expect(paired.skipped).toEqual({ copy: 0, modelChanged: 1, nothingCached: 1, noTime: 1 });
  });
});
