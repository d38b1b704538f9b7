import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pageOf, RESTORE_PAGE_CHARS, RESTORE_PAGE_JSON_CHARS } from '../../src/mcp/restore-page.js';

/** Every page from 0 on, each asked for at the offset the one before ended. */
function pages(text: string): string[] {
  const out: string[] = [];
  for (let offset = 0; ; ) {
    const page = pageOf(text, offset)!;
    out.push(text.slice(page.start, page.end));
    if (page.end === page.total) return out;
    expect(page.end).toBeGreaterThan(offset);
    offset = page.end;
  }
}

describe('pageOf', () => {
  it('should give a short text whole, and nothing past its end', () => {
    expect(pageOf('abc', 0)).toEqual({ start: 0, end: 3, total: 3 });
    expect(pageOf('abc', 3)).toEqual({ start: 3, end: 3, total: 3 });
    expect(pageOf('abc', 4)).toBeUndefined();
    expect(pageOf('abc', -1)).toBeUndefined();
    expect(pageOf('', 0)).toEqual({ start: 0, end: 0, total: 0 });
  });

  it('should cut a long text after a line break, in pages that join back to it', () => {
    const text = Array.from({ length: 3000 }, (_, i) => `line ${i}: ${'x'.repeat(40)}`).join('\n');
    const parts = pages(text);
    expect(parts.length).toBeGreaterThanOrEqual(Math.ceil(text.length / RESTORE_PAGE_CHARS));
    expect(parts.join('')).toBe(text);
    for (const p of parts.slice(0, -1)) expect(p.endsWith('\n')).toBe(true);
  });

  it('should keep a page under the JSON limit however much its text escapes, and never split a surrogate pair', () => {
    const quotes = '"\\\u0001'.repeat(30_000);
    for (const p of pages(quotes)) expect(JSON.stringify(p).length - 2).toBeLessThanOrEqual(RESTORE_PAGE_JSON_CHARS);
    const emoji = '😀'.repeat(RESTORE_PAGE_CHARS);
    const parts = pages(emoji);
    expect(parts.join('')).toBe(emoji);
    for (const p of parts) expect(p).toBe([...p].join(''));
    for (const p of parts) expect(/^(?:\uD83D\uDE00)*$/.test(p)).toBe(true);
  });

  it('should page any text into pieces that join back to it exactly', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 3 * RESTORE_PAGE_CHARS }), (text) => {
        expect(pages(text).join('')).toBe(text);
      }),
      { numRuns: 30 },
    );
  });
});
