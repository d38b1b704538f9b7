import { describe, expect, it } from 'vitest';
import { wrapLine, wrapLines } from '../../src/cli/wrap-words.js';

describe('wrapLine', () => {
  it('should wrap at spaces to the width, continuation lines indented', () => {
    expect(wrapLine('one two three four', 9)).toEqual(['one two', '  three', '  four']);
  });

  it('should keep a line that fits as it is, and never cut a word', () => {
    expect(wrapLine('short line', 80)).toEqual(['short line']);
    expect(wrapLine('a /a/path/longer/than/the/width b', 10)).toEqual(['a', '  /a/path/longer/than/the/width', '  b']);
  });
});

describe('wrapLines', () => {
  it('should wrap each line on its own and join them', () => {
    expect(wrapLines(['ab cd', 'ef'], 3)).toBe('ab\n  cd\nef');
  });
});
