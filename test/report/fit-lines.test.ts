import { describe, expect, it } from 'vitest';
import { fitLine, fitLines, hangingIndent } from '../../src/report/fit-lines.js';

describe('fitLine', () => {
  it('should leave a line that fits as it is, spaces and all', () => {
    expect(fitLine('requests            40', 30)).toEqual(['requests            40']);
  });

  it('should break at spaces and go on under the value of a labelled line', () => {
    expect(fitLine('refaults            0 of 11 blocks read back (0.0%), 0 reads', 40)).toEqual([
      'refaults            0 of 11 blocks read',
      '                    back (0.0%), 0 reads',
    ]);
    expect(fitLine('  why       fullness 72.6% >= threshold 70.0% of a 12,000-token window', 40)).toEqual([
      '  why       fullness 72.6% >= threshold',
      '            70.0% of a 12,000-token',
      '            window',
    ]);
  });

  it('should go on two columns in from a plain line, never past half the width', () => {
    expect(fitLine('2 conversations, 2 epochs, 11 blocks elided: 18.4 KiB', 30)).toEqual(['2 conversations, 2 epochs, 11', '  blocks elided: 18.4 KiB']);
    expect(hangingIndent('  handle    abc')).toBe(12);
    expect(hangingIndent('a plain line')).toBe(2);
  });

  it('should keep a word longer than the line whole, on a line of its own', () => {
    const key = 'c'.repeat(64);

    expect(fitLine(`conversation ${key}`, 60)).toEqual(['conversation', `  ${key}`]);
    expect(fitLine(key, 60)).toEqual([key]);
  });

  it('should count characters, not UTF-16 units', () => {
    expect(fitLine('😀😀😀 😀😀', 5)).toEqual(['😀😀😀', '  😀😀']);
  });
});

describe('fitLines', () => {
  it('should split lines holding a newline first', () => {
    expect(fitLines(['a b\nc d e f'], 5)).toEqual(['a b', 'c d e', '  f']);
  });
});
