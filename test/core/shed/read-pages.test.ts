import { describe, expect, it } from 'vitest';
import { READ_PAGE_CHARS, readPagesOf } from '../../../src/core/shed/read-pages.js';
import { readAsClaudeCode, READ_CUT_CHARS } from '../../../src/scripted/read-tool.js';

/** A text of `lines` lines of `width` characters, ending with a line break, as a span's `.md` does. */
const textOf = (lines: number, width: number): string => `${Array.from({ length: lines }, (_, i) => `${i}`.padEnd(width, 'x')).join('\n')}\n`;

describe('readPagesOf', () => {
  it('should name no page when one Read gives the text whole', () => {
    expect(readPagesOf(textOf(300, 60))).toEqual([]);
  });

  it('should cut the 1,581-line .md the real client cut at 1,268 lines into pages that each come back whole, and cover every line once', () => {
    const text = textOf(1_581, 65);
    const pages = readPagesOf(text);
    const lines = text.split('\n').length;

    expect(pages.length).toBeGreaterThan(1);
    expect(pages[0]![0]).toBe(1);
    for (let i = 1; i < pages.length; i++) expect(pages[i]![0]).toBe(pages[i - 1]![0] + pages[i - 1]![1]);
    expect(pages.at(-1)![0] + pages.at(-1)![1] - 1).toBe(lines);
    for (const [offset, limit] of pages) {
      const answer = readAsClaudeCode(text, { offset, limit }, 'older');
      expect(answer.length).toBeLessThanOrEqual(READ_PAGE_CHARS);
      expect(answer).not.toContain('Truncated');
      expect(answer.split('\n')).toHaveLength(limit);
    }
    // One Read of it all is cut, as the real client cuts it.
    expect(readAsClaudeCode(text, {}, 'current').length).toBeLessThanOrEqual(READ_CUT_CHARS);
  });

  it('should give a line longer than a page a page of its own', () => {
    const text = `short\n${'y'.repeat(READ_PAGE_CHARS + 10)}\nshort\n`;
    expect(readPagesOf(text)).toEqual([
      [1, 1],
      [2, 1],
      [3, 2],
    ]);
  });
});
