import { describe, expect, it } from 'vitest';
import { applyRepeats, planRepeats } from '../../../src/core/repeats/plan-repeats.js';
import { findRepeatPointers, repeatContent } from '../../../src/core/repeats/inflate-repeats.js';
import { findRepeats } from '../../../src/core/repeats/find-repeats.js';
import { parseRepeatPointer, renderRepeatPointer } from '../../../src/core/repeats/repeat-pointer.js';
import { applyInflate } from '../../../src/core/epochs/inflate.js';
import { indexTranscript } from '../../../src/core/messages/transcript-index.js';
import { fromUtf8, mustIndex, sha256 } from '../bodies.js';
import { bodyOf, SPAN } from './repeat-bodies.js';

const STORED = new Set([SPAN]);
const reindex = (b: Uint8Array) => {
  const indexed = indexTranscript(b);
  return indexed.kind === 'indexed' ? indexed.index : undefined;
};

function rewrite(body: Uint8Array) {
  const index = mustIndex(body);
  const planned = planRepeats(body, index, findRepeats(body, index, STORED), '/state/elided', sha256);
  return { index, planned, applied: applyRepeats(body, index, planned, reindex) };
}

describe('planRepeats and applyRepeats', () => {
  it("should replace only the repeat's content value with its pointer, keeping a restore's header, and keep its exact bytes in the files", () => {
    const body = bodyOf([[{ read: {} }], [{ restore: 0 }]]);
    const { index, planned, applied } = rewrite(body);

    expect(planned).toHaveLength(1);
    if (applied.kind !== 'applied') throw new Error(applied.why);
    const block = index.toolResults[1]!;
    // Everything before and after the value is the input's.
    expect(applied.body.subarray(0, block.content.start)).toEqual(body.subarray(0, block.content.start));
    expect(applied.body.subarray(applied.body.length - (body.length - block.content.end))).toEqual(body.subarray(block.content.end));
    const value = fromUtf8(applied.body.subarray(block.content.start, applied.body.length - (body.length - block.content.end)));
    const pointer = parseRepeatPointer(JSON.parse(value) as string)!;
    expect(pointer.lead).toMatch(/^\[ctxshed restore: shed span, .* follows this line[^\n]*\]\n$/);
    expect(pointer.earlier).toEqual(['t0x0']);
    const [text] = planned[0]!.files;
    expect(text).toMatchObject({ ext: 'txt', sha256: pointer.sha256 });
    expect(sha256(text!.bytes)).toBe(pointer.sha256);
    // The text alone rebuilds the value: no raw JSON kept.
    expect(planned[0]!.files).toHaveLength(1);
    expect(repeatContent(pointer, text!.bytes, undefined)).toEqual(body.subarray(block.content.start, block.content.end));
  });

  it('should give the same bytes for the same body, and none for a body with no repeat', () => {
    const body = bodyOf([[{ restore: 0 }], [{ read: {} }], [{ read: {} }]]);
    const a = rewrite(body).applied;
    const b = rewrite(body).applied;
    expect(a.kind === 'applied' && b.kind === 'applied' && a.body).toEqual(b.kind === 'applied' && b.body);
    expect(rewrite(bodyOf([[{ restore: 0 }]])).planned).toEqual([]);
  });

  it('should inflate back to the client body, byte for byte, from the pointers and their files', () => {
    const body = bodyOf([[{ restore: 0 }], [{ read: {} }], [{ read: { offset: 1, limit: 200 } }, { restore: 0 }]]);
    const { planned, applied } = rewrite(body);
    if (applied.kind !== 'applied') throw new Error(applied.why);
    const files = new Map(planned.flatMap((p) => p.files.map((f) => [f.sha256, f.bytes] as const)));

    const found = findRepeatPointers(applied.body, mustIndex(applied.body));
    const rebuilt = applyInflate(
      applied.body,
      found.map((f) => ({
        found: f,
        content: repeatContent(f.pointer, files.get(f.pointer.sha256)!, f.pointer.rawSha256 === undefined ? undefined : files.get(f.pointer.rawSha256)),
      })),
    );

    expect(found.length).toBe(planned.length);
    expect(rebuilt).toEqual(body);
  });

  it('should read back every pointer it renders, with a lead or without, one earlier answer or several', () => {
    for (const lead of ['', '[ctxshed restore: x; follows this line]\n', '<system-reminder>[Truncated: PARTIAL view]</system-reminder>\n\n']) {
      for (const earlier of [['toolu_01a'], ['toolu_01a', 'toolu_01b']]) {
        const pointer = { lead, bytes: 12, sha256: 'c'.repeat(64), earlier, ...(earlier.length > 1 ? { rawSha256: 'd'.repeat(64) } : {}) };
        expect(parseRepeatPointer(renderRepeatPointer(pointer, '/home/me/.local/state/ctxshed/elided'))).toEqual(pointer);
      }
    }
    expect(parseRepeatPointer('[ctxshed: not repeated: something else]')).toBeUndefined();
  });
});
