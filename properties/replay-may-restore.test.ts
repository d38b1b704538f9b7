/** The replay's quick test for a body that may bring stored text back agrees with the regular expression it replaced. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RESTORE_TOOL_NAME } from '../src/core/detect-refaults.js';
import { mayRestore } from '../src/replay/working-set-tally.js';

const ORACLE = new RegExp(`${RESTORE_TOOL_NAME}|[0-9a-fA-F]{64}\\.(?:txt|md|json)`);
const SHA = 'ab'.repeat(32);

/** Bodies built of pieces that come near a match: hex runs of every length, the extensions, the tool's name cut short. */
const pieceArb = fc.oneof(
  fc.string({ maxLength: 8 }),
  fc.integer({ min: 0, max: 70 }).map((n) => 'f'.repeat(n)),
  fc.constantFrom('.txt', '.md', '.json', '.jso', '.tx', 'x', '/', SHA, 'G', RESTORE_TOOL_NAME, RESTORE_TOOL_NAME.slice(0, -1)),
);
const bodyArb = fc.array(pieceArb, { maxLength: 12 }).map((parts) => parts.join(''));

describe('mayRestore', () => {
  it('should say what the regular expression says, for bodies near a match', () => {
    fc.assert(
      fc.property(bodyArb, (text) => {
        expect(mayRestore(Buffer.from(text, 'latin1'))).toBe(ORACLE.test(text));
      }),
      { numRuns: 2000 },
    );
  });

  it('should find a stored file name, and the tool, and nothing in their absence', () => {
    expect(mayRestore(Buffer.from(`{"file_path":"/s/elided/${SHA}.txt"}`))).toBe(true);
    expect(mayRestore(Buffer.from(`spans/${SHA}.md`))).toBe(true);
    expect(mayRestore(Buffer.from(`"name":"${RESTORE_TOOL_NAME}"`))).toBe(true);
    expect(mayRestore(Buffer.from(`${SHA.slice(1)}.txt and ${SHA}.tx`))).toBe(false);
    expect(mayRestore(new Uint8Array(0))).toBe(false);
  });
});
