/** The text of a JSON string token as a JS string: exactly when it can be, else as close as it gets. */
import { decodeJsonString } from '../json-string.js';
import type { Span } from '../transcript-index-types.js';

// ignoreBOM: a leading U+FEFF is part of the text (a pin must stay verbatim), not a byte order mark.
const UTF8 = new TextDecoder('utf-8', { ignoreBOM: true });

/** The token's text, or `undefined` when it is not valid Unicode (a lone surrogate, bad UTF-8). */
export function exactText(body: Uint8Array, token: Span): string | undefined {
  const bytes = decodeJsonString(body, token.start, token.end);
  return bytes === undefined ? undefined : UTF8.decode(bytes);
}

/**
 * The token's text even when it is not valid Unicode (lone surrogates kept, bad UTF-8 replaced):
 * for excerpts and readable renderings, never for what must be verbatim. Empty when the token
 * is not a JSON string at all.
 */
export function lenientText(body: Uint8Array, token: Span): string {
  try {
    const value: unknown = JSON.parse(UTF8.decode(body.subarray(token.start, token.end)));
    return typeof value === 'string' ? value : '';
  } catch {
    return '';
  }
}
