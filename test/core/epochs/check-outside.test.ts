import { describe, expect, it } from 'vitest';
import { checkOutsideMessages } from '../../../src/core/epochs/check-outside.js';
import { mustIndex, utf8 } from '../bodies.js';

const body = (model: string, tail: string): Uint8Array => utf8(`{"model":"${model}","messages":[{"role":"user","content":"hi"}]${tail}}`);

describe('checkOutsideMessages', () => {
  it.each([
    ['the same bytes', body('m', ',"x":1'), undefined],
    ['a changed head', body('n', ',"x":1'), 'bytes before "messages" changed'],
    ['a changed tail', body('m', ',"x":2'), 'bytes after "messages" changed'],
  ] as const)('should judge %s', (_name, output, expected) => {
    // Arrange
    const input = body('m', ',"x":1');

    // Act
    const failure = checkOutsideMessages(input, mustIndex(input), output, mustIndex(output));

    // Assert
    expect(failure).toBe(expected);
  });
});
