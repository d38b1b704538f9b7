/**
 * JSON strings as bytes: decode a string token to the UTF-8 bytes of its text, and encode text
 * the way `JSON.stringify` does. Neither builds a JS string of the text.
 */
import { hexValue } from './json-scan.js';

const BACKSLASH = 0x5c;

/**
 * The UTF-8 bytes of the text of the string token at [start, end) (quotes included), or
 * `undefined` when the token is not a valid JSON string of Unicode text: a bad escape, a raw
 * control byte, a lone surrogate escape (`\ud800`) or invalid UTF-8. This is where string
 * contents are validated (the scanner only finds where strings end). Without escapes the result
 * is a view into `b`, not a copy.
 */
export function decodeJsonString(b: Uint8Array, start: number, end: number): Uint8Array | undefined {
  const inner = b.subarray(start + 1, end - 1);
  if (inner.indexOf(BACKSLASH) < 0) return isRawStringContent(inner) ? inner : undefined;
  const out = new Uint8Array(inner.length);
  let o = 0;
  let i = 0;
  while (i < inner.length) {
    const c = inner[i]!;
    if (c !== BACKSLASH) {
      if (c < 0x20) return undefined;
      out[o++] = c;
      i++;
      continue;
    }
    const e = inner[i + 1];
    if (e !== 0x75) {
      const simple = SIMPLE_ESCAPES[e ?? -1];
      if (simple === undefined) return undefined;
      out[o++] = simple;
      i += 2;
      continue;
    }
    let cp = readHex4(inner, i + 2);
    if (cp < 0) return undefined;
    i += 6;
    if (cp >= 0xd800 && cp <= 0xdbff) {
      const lo = inner[i] === BACKSLASH && inner[i + 1] === 0x75 ? readHex4(inner, i + 2) : -1;
      if (lo < 0xdc00 || lo > 0xdfff) return undefined;
      cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
      i += 6;
    } else if (cp >= 0xdc00 && cp <= 0xdfff) {
      return undefined;
    }
    o = writeUtf8(out, o, cp);
  }
  const text = out.subarray(0, o);
  return isValidUtf8(text) ? text : undefined;
}

const SIMPLE_ESCAPES: Record<number, number> = {
  0x22: 0x22,
  0x5c: 0x5c,
  0x2f: 0x2f,
  0x62: 0x08,
  0x66: 0x0c,
  0x6e: 0x0a,
  0x72: 0x0d,
  0x74: 0x09,
};

/** The value of 4 hex digits at `i`, or -1 when they are not 4 hex digits. */
function readHex4(b: Uint8Array, i: number): number {
  const d0 = hexValue(b[i]);
  const d1 = hexValue(b[i + 1]);
  const d2 = hexValue(b[i + 2]);
  const d3 = hexValue(b[i + 3]);
  if ((d0 | d1 | d2 | d3) < 0) return -1;
  return (d0 << 12) | (d1 << 8) | (d2 << 4) | d3;
}

// An escape is 6 bytes and its UTF-8 is at most 3 (a surrogate pair: 12 bytes to 4), so the
// decoded text never outgrows the token and `out` needs no resizing.
function writeUtf8(out: Uint8Array, o: number, cp: number): number {
  if (cp < 0x80) {
    out[o++] = cp;
  } else if (cp < 0x800) {
    out[o++] = 0xc0 | (cp >> 6);
    out[o++] = 0x80 | (cp & 0x3f);
  } else if (cp < 0x10000) {
    out[o++] = 0xe0 | (cp >> 12);
    out[o++] = 0x80 | ((cp >> 6) & 0x3f);
    out[o++] = 0x80 | (cp & 0x3f);
  } else {
    out[o++] = 0xf0 | (cp >> 18);
    out[o++] = 0x80 | ((cp >> 12) & 0x3f);
    out[o++] = 0x80 | ((cp >> 6) & 0x3f);
    out[o++] = 0x80 | (cp & 0x3f);
  }
  return o;
}

const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Whether the bytes may stand raw between a JSON string's quotes: well-formed UTF-8 and no
 * control byte below 0x20 (RFC 8259 §7 requires those escaped).
 */
export function isRawStringContent(bytes: Uint8Array): boolean {
  let ascii = true;
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes[i]!;
    if (c < 0x20) return false;
    if (c >= 0x80) ascii = false;
  }
  return ascii || isValidUtf8(bytes);
}

/** Whether the bytes are well-formed UTF-8 (no overlongs, no surrogates). */
export function isValidUtf8(bytes: Uint8Array): boolean {
  try {
    UTF8.decode(bytes);
    return true;
  } catch {
    return false;
  }
}

const HEX = '0123456789abcdef';

/**
 * The JSON string token (quotes included) that `JSON.stringify` would write for this UTF-8 text:
 * `"` and `\` escaped, \b \f \n \r \t short, other controls as \u00xx, all else raw.
 */
export function encodeJsonString(text: Uint8Array): Uint8Array {
  let extra = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === 0x22 || c === BACKSLASH) extra += 1;
    else if (c < 0x20) extra += SHORT_ESCAPES[c] === undefined ? 5 : 1;
  }
  const out = new Uint8Array(text.length + extra + 2);
  out[0] = 0x22;
  if (extra === 0) {
    out.set(text, 1);
  } else {
    let o = 1;
    for (let i = 0; i < text.length; i++) {
      const c = text[i]!;
      if (c === 0x22 || c === BACKSLASH) {
        out[o++] = BACKSLASH;
        out[o++] = c;
      } else if (c < 0x20) {
        o = writeControlEscape(out, o, c);
      } else {
        out[o++] = c;
      }
    }
  }
  out[out.length - 1] = 0x22;
  return out;
}

const SHORT_ESCAPES: Record<number, number> = { 0x08: 0x62, 0x0c: 0x66, 0x0a: 0x6e, 0x0d: 0x72, 0x09: 0x74 };

function writeControlEscape(out: Uint8Array, o: number, c: number): number {
  out[o++] = BACKSLASH;
  const short = SHORT_ESCAPES[c];
  if (short !== undefined) {
    out[o++] = short;
    return o;
  }
  out[o++] = 0x75;
  out[o++] = 0x30;
  out[o++] = 0x30;
  out[o++] = HEX.charCodeAt(c >> 4);
  out[o++] = HEX.charCodeAt(c & 0xf);
  return o;
}
