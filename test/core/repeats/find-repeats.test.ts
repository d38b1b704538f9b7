import { describe, expect, it } from 'vitest';
import { findRepeats, REPEAT_MIN_CHARS } from '../../../src/core/repeats/find-repeats.js';
import { mustIndex } from '../bodies.js';
import { bodyOf, RENDERING, SPAN } from './repeat-bodies.js';

const STORED = new Set([SPAN]);
const repeatsOf = (turns: Parameters<typeof bodyOf>[0], stored: ReadonlySet<string> = STORED) => {
  const body = bodyOf(turns);
  return findRepeats(body, mustIndex(body), stored).map((r) => ({ later: r.later.toolUseId, earlier: r.earlier.map((e) => e.toolUseId) }));
};

describe('findRepeats', () => {
  it('should point a Read of the .md at the restore that gave the same text, in a later turn', () => {
    expect(RENDERING.length).toBeLessThan(40_000);
    expect(repeatsOf([[{ restore: 0 }], [{ read: {} }]])).toEqual([{ later: 't1x0', earlier: ['t0x0'] }]);
  });

  it('should keep the longer copy when both come in one message, whichever is first', () => {
    expect(repeatsOf([[{ read: { offset: 1, limit: 100 } }, { restore: 0 }]])).toEqual([{ later: 't0x0', earlier: ['t0x1'] }]);
  });

  it('should point two Reads of one range, or two restores of one handle, at the first', () => {
    expect(repeatsOf([[{ read: {} }], [{ read: {} }]])).toEqual([{ later: 't1x0', earlier: ['t0x0'] }]);
    expect(repeatsOf([[{ restore: 0 }], [{ restore: 0 }]])).toEqual([{ later: 't1x0', earlier: ['t0x0'] }]);
  });

  it('should find a later copy whose text lies in a run of Read pages that meet', () => {
    const found = repeatsOf([
      [{ read: { offset: 1, limit: 150 } }, { read: { offset: 151, limit: 150 } }, { read: { offset: 301, limit: 200 } }],
      [{ restore: 0 }],
    ]);
    expect(found).toEqual([{ later: 't1x0', earlier: ['t0x0', 't0x1', 't0x2'] }]);
  });

  it('should leave alone a copy that holds text no earlier copy holds, a short one, and one of nothing the epochs froze', () => {
    expect(repeatsOf([[{ read: { offset: 1, limit: 100 } }], [{ restore: 0 }]])).toEqual([]);
    expect(repeatsOf([[{ read: {} }], [{ read: { offset: 1, limit: 5 } }]]).length).toBe(0);
    expect('line 1: word word'.length).toBeLessThan(REPEAT_MIN_CHARS);
    expect(repeatsOf([[{ restore: 0 }], [{ read: {} }]], new Set(['f'.repeat(64)]))).toEqual([]);
  });

  it('should never compare a project file with a stored text, nor throw on a body it cannot read', () => {
    expect(repeatsOf([[{ file: 'a.ts' }], [{ file: 'a.ts' }]])).toEqual([]);
    const body = new TextEncoder().encode('{"messages":[]}');
    expect(findRepeats(body, mustIndex(body), STORED)).toEqual([]);
  });
});
