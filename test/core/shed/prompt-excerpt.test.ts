import { describe, expect, it } from 'vitest';
import { latestPrompt, promptExcerpt, TOMBSTONE_MAX_CHARS, wellFormed } from '../../../src/core/shed/prompt-excerpt.js';

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

describe('wellFormed', () => {
  it('should replace lone surrogates with U+FFFD and keep pairs, so the stub survives UTF-8 as it is', () => {
    // A prompt sent as the JSON escape "\ud800" (found by properties/shed-valid-output.test.ts, seed 320038066).
    expect(wellFormed('a\ud800b\udc00c😀')).toBe('a\ufffdb\ufffdc😀');
    expect(latestPrompt(['\ud800'])).toBe('\ufffd');
    expect(promptExcerpt(['x \udfff'])).toBe('x \ufffd');
    expect(new TextDecoder().decode(new TextEncoder().encode(latestPrompt(['\ud83d'])))).toBe(latestPrompt(['\ud83d']));
  });
});
