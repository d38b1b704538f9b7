/**
 * Texts for tool results, prompts and thinking: hostile characters (quotes, backslashes, control
 * characters, emoji, U+2028, a BOM, the odd lone surrogate) at exact UTF-8 sizes, many over the
 * 1 KiB eligibility line and some right at it. A text is a few short pieces cycled to a size, so
 * fast-check generates (and shrinks) a handful of pieces, not thousands of characters.
 */
import fc from 'fast-check';

const HOSTILE_PIECES = [
  '"',
  '\\',
  '\\\\"',
  '\n',
  '\r\n',
  '\t',
  '\u0000',
  '\u0008',
  '\u000c',
  '\u001b',
  '\u001f',
  '\u007f',
  '/',
  '</script>',
  'é',
  'ü',
  'ß',
  '中文字',
  '😀',
  '👍🏽',
  '👨‍👩‍👧',
  '\u2028',
  '\u2029',
  '\ufeff',
  '\u00a0',
  '\\n',
  '\\u0041',
  '{"json": [1, 2.5e3, null]}',
  '    at Object.<anonymous> (/src/x.ts:1:1)\n',
  '$ npm test\n',
  '[Old tool result content cleared]',
  '[ctxshed]',
  // A lone surrogate: legal in a JSON string (as an escape), but text with no UTF-8 form.
  '\ud800',
];

const pieceArb: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.string({ unit: 'grapheme', maxLength: 12 }) },
  { weight: 3, arbitrary: fc.constantFrom(...HOSTILE_PIECES) },
  { weight: 3, arbitrary: fc.string({ unit: 'binary-ascii', maxLength: 24 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 6 }) },
);

/** UTF-8 length of one code point (a lone surrogate counts as its 3-byte WTF-8 form). */
function utf8Length(codePoint: number): number {
  if (codePoint < 0x80) return 1;
  if (codePoint < 0x800) return 2;
  return codePoint < 0x10000 ? 3 : 4;
}

/** The pieces cycled to exactly `bytes` UTF-8 bytes (padded with `x` where a character would not fit). */
export function cycleText(pieces: readonly string[], bytes: number): string {
  const chars: string[] = [];
  for (const piece of pieces) for (const ch of piece) chars.push(ch);
  if (chars.length === 0) return 'x'.repeat(bytes);
  const cycle = chars.join('');
  let cycleBytes = 0;
  for (const ch of chars) cycleBytes += utf8Length(ch.codePointAt(0)!);
  const whole = Math.floor(bytes / cycleBytes);
  let out = cycle.repeat(whole);
  let used = whole * cycleBytes;
  for (const ch of chars) {
    const n = utf8Length(ch.codePointAt(0)!);
    if (used + n > bytes) break;
    out += ch;
    used += n;
  }
  return out + 'x'.repeat(bytes - used);
}

/** A text of `bytes` UTF-8 bytes from the sizes given. */
export function textArb(sizeArb: fc.Arbitrary<number>): fc.Arbitrary<string> {
  return fc.record({ pieces: fc.array(pieceArb, { minLength: 1, maxLength: 5 }), bytes: sizeArb }).map(({ pieces, bytes }) => cycleText(pieces, bytes));
}

/** Sizes of tool-result texts: small ones, the 1 KiB line itself, and large ones. */
export const toolTextSizeArb: fc.Arbitrary<number> = fc.oneof(
  { weight: 3, arbitrary: fc.integer({ min: 1, max: 400 }) },
  { weight: 1, arbitrary: fc.constantFrom(1023, 1024, 1025) },
  { weight: 2, arbitrary: fc.integer({ min: 1000, max: 1050 }) },
  { weight: 4, arbitrary: fc.integer({ min: 1026, max: 6000 }) },
);

/** A tool result's text. */
export const toolTextArb: fc.Arbitrary<string> = textArb(toolTextSizeArb);

/** A short non-empty text: prompts, assistant prose, reminders, descriptions. */
export const shortTextArb: fc.Arbitrary<string> = textArb(fc.integer({ min: 1, max: 160 }));
