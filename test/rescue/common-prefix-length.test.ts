import { describe, expect, it } from 'vitest';
import { commonPrefixLengthLoop } from '../../src/core/common-prefix.js';
import { commonPrefixLength, PREFIX_CHUNK_BYTES } from '../../src/rescue/common-prefix-length.js';

/** `n` bytes of a repeating pattern, with byte `at` (if any) changed. */
function bytes(n: number, at?: number): Uint8Array {
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) out[i] = (i * 31 + 7) & 0xff;
  if (at !== undefined && at < n) out[at] = out[at]! ^ 0x55;
  return out;
}

describe('commonPrefixLength', () => {
  const sizes = [0, 1, 63, 64, 65, PREFIX_CHUNK_BYTES - 1, PREFIX_CHUNK_BYTES, PREFIX_CHUNK_BYTES + 1, 3 * PREFIX_CHUNK_BYTES + 17];

  it.each(sizes)('should find a difference at every interesting offset of %i bytes, as the plain loop does', (n) => {
    // Arrange: a difference at the start, at the end, and around chunk and halving edges.
    const offsets = [0, 1, 63, 64, 65, n >> 1, PREFIX_CHUNK_BYTES - 1, PREFIX_CHUNK_BYTES, PREFIX_CHUNK_BYTES + 1, n - 1].filter((o) => o >= 0 && o < n);
    const a = bytes(n);

    // Act
    const found = offsets.map((o) => commonPrefixLength(a, bytes(n, o)));

    // Assert
    expect(found).toEqual(offsets);
    expect(found).toEqual(offsets.map((o) => commonPrefixLengthLoop(a, bytes(n, o))));
  });

  it('should give the shorter length when one is a prefix of the other', () => {
    // Arrange
    const long = bytes(PREFIX_CHUNK_BYTES * 2 + 5);

    // Act
    const n = commonPrefixLength(long.subarray(0, PREFIX_CHUNK_BYTES + 3), long);

    // Assert
    expect(n).toBe(PREFIX_CHUNK_BYTES + 3);
  });

  it('should take plain Uint8Array views at an offset as well as Buffers', () => {
    // Arrange
    const backing = bytes(1000);
    const view = backing.subarray(10, 500);
    const copy = Buffer.from(backing.subarray(10, 500));
    copy[300] = copy[300]! ^ 1;

    // Act
    const n = commonPrefixLength(view, copy);

    // Assert
    expect(n).toBe(300);
  });
});
