import { describe, expect, it } from 'vitest';
import { checkFrozenSpan, spanEnd, spansChecker } from '../../../../src/core/epochs/spans/check-record.js';

const GOOD = { first: 1, last: 8, sha256: 'a'.repeat(64), bytes: 4000, pins: ['[ctxshed:goal] x'], tombstone: 'Port it.' };

describe('checkFrozenSpan', () => {
  it('should find nothing wrong with a good span, with or without a tombstone', () => {
    expect(checkFrozenSpan(GOOD, 'epoch #1', 0)).toEqual([]);
    expect(checkFrozenSpan({ ...GOOD, tombstone: undefined, first: 9, last: 9 }, 'epoch #2', 8)).toEqual([]);
    expect(checkFrozenSpan({ ...GOOD, notices: ['<system-reminder>\n# MCP Server Instructions\n</system-reminder>'] }, 'epoch #1', 0)).toEqual([]);
    expect(
      checkFrozenSpan(
        {
          ...GOOD,
          readPages: [
            [1, 600],
            [601, 12],
          ],
        },
        'epoch #1',
        0,
      ),
    ).toEqual([]);
  });

  it.each([
    ['not an object', [1], 'span is not an object'],
    ['the head in the span', { ...GOOD, first: 0 }, 'first is not a message ordinal after 0'],
    ['a span reaching back into the last one', { ...GOOD, first: 8 }, 'first is not a message ordinal after 8'],
    ['last before first', { ...GOOD, last: 0 }, 'last is not a message ordinal at or after first'],
    ['a bad sha256', { ...GOOD, sha256: 'A'.repeat(64) }, 'sha256 is not 64 lowercase hex digits'],
    ['no bytes', { ...GOOD, bytes: 0 }, 'bytes is not a positive integer'],
    ['pins that are not strings', { ...GOOD, pins: [1] }, 'pins is not an array of strings'],
    ['notices that are not strings', { ...GOOD, notices: [1] }, 'notices is not a non-empty array of strings'],
    ['empty notices', { ...GOOD, notices: [] }, 'notices is not a non-empty array of strings'],
    ['a long tombstone', { ...GOOD, tombstone: 'x'.repeat(201) }, 'tombstone is not a string of at most 200'],
    ['one read page', { ...GOOD, readPages: [[1, 600]] }, 'readPages is not a run of [offset, limit] pages'],
    [
      'read pages with a gap',
      {
        ...GOOD,
        readPages: [
          [1, 600],
          [602, 3],
        ],
      },
      'readPages is not a run of [offset, limit] pages',
    ],
    [
      'read pages not from line 1',
      {
        ...GOOD,
        readPages: [
          [2, 600],
          [602, 3],
        ],
      },
      'readPages is not a run of [offset, limit] pages',
    ],
  ])('should report %s', (_name, span, problem) => {
    const after = (span as { first?: number }).first === 8 ? 8 : 0;

    expect(checkFrozenSpan(span, 'epoch #1', after).join('; ')).toContain(problem);
  });
});

describe('spanEnd', () => {
  it("should move on to a span's last message, and stay put on a broken span", () => {
    expect(spanEnd(GOOD, 0)).toBe(8);
    expect(spanEnd({ last: 'x' }, 3)).toBe(3);
    expect(spanEnd(null, 3)).toBe(3);
  });
});

describe('spansChecker', () => {
  it('should take one span an epoch, each after the last one the epochs before it shed', () => {
    const next = { ...GOOD, first: 9, last: 12 };
    const inOrder = spansChecker();
    const back = spansChecker();
    const check = spansChecker();

    expect(inOrder([GOOD], 'epoch #1')).toEqual([]);
    expect(inOrder([next], 'epoch #2')).toEqual([]);
    expect(back([next], 'epoch #1')).toEqual([]);
    expect(back([GOOD], 'epoch #2')).toEqual(['epoch #2: span first is not a message ordinal after 12']);
    expect(check([], 'epoch #1')).toEqual(['epoch #1: items.span holds 0 spans, not one']);
    expect(check([GOOD, next], 'epoch #2')).toEqual(['epoch #2: items.span holds 2 spans, not one']);
  });
});
