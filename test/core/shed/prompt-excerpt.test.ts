import { describe, expect, it } from 'vitest';
import { promptExcerpt, TOMBSTONE_MAX_CHARS } from '../../../src/core/index.js';

describe('promptExcerpt', () => {
  it('should put the prompt on one line, whitespace collapsed, reminders left out', () => {
    expect(promptExcerpt(['<system-reminder>\nskills\n</system-reminder>', '  Port the\n\tdecoder  to AVX2. '])).toBe('Port the decoder to AVX2.');
  });

  it('should keep the reminders when they are all there is', () => {
    expect(promptExcerpt(['<system-reminder>only</system-reminder>'])).toBe('<system-reminder>only</system-reminder>');
  });

  it('should cut at 200 characters, counting an emoji as one, and mark the cut', () => {
    const long = '😀'.repeat(300);

    const excerpt = promptExcerpt([long]);

    expect(Array.from(excerpt)).toHaveLength(TOMBSTONE_MAX_CHARS);
    expect(excerpt.endsWith('😀…')).toBe(true);
    expect(promptExcerpt(['x'.repeat(200)])).toBe('x'.repeat(200));
  });
});
