/**
 * One page of a restored text. Claude Code 2.1.197 does not put an MCP tool's answer of about
 * 50,000 characters or more (as JSON) into the context: it saves it to a file of its own and shows
 * the model a 2 KB preview, and past about 100,000 an error. Its saved file is the answer as JSON,
 * the whole text on one line, which Read cannot page through. So `restore` answers a long text in
 * pages under that limit, each saying where the next one starts (docs/rescue.md, "The restore tools").
 */

/** The most characters of text one answer carries. */
export const RESTORE_PAGE_CHARS = 40_000;
/** The most characters a page may take once JSON-escaped, so escapes cannot push it over the client's limit. */
export const RESTORE_PAGE_JSON_CHARS = 45_000;

/** Characters [start, end) of a text of `total` characters (UTF-16 code units, as `offset` counts them). */
export interface Page {
  readonly start: number;
  readonly end: number;
  readonly total: number;
}

/**
 * The page of `text` that starts at `offset`, of at most `maxChars` characters (the page limit
 * unless the caller leaves room in the window), or undefined when `offset` is past its end. A page
 * that is not the last ends at the last of `stops` (character offsets) it reaches, else after a
 * line break when one lies in its second half, and never between the two halves of a surrogate
 * pair, so the pages join back to the text exactly.
 */
export function pageOf(text: string, offset: number, maxChars: number = RESTORE_PAGE_CHARS, stops: readonly number[] = []): Page | undefined {
  const total = text.length;
  if (!Number.isInteger(offset) || offset < 0 || offset > total) return undefined;
  let end = Math.min(total, offset + Math.max(1, Math.min(maxChars, RESTORE_PAGE_CHARS)));
  for (let escaped = jsonLength(text.slice(offset, end)); escaped > RESTORE_PAGE_JSON_CHARS; escaped = jsonLength(text.slice(offset, end))) {
    end = offset + Math.max(1, Math.floor(((end - offset) * RESTORE_PAGE_JSON_CHARS) / escaped) - 1);
  }
  // Where a page of Read stops (a span's `.md` pages, core/shed/read-pages.ts), a page of restore
  // stops too: the two give the same text, and the later is carried once (core/repeats/).
  const stop = end < total ? stops.findLast((at) => at > offset && at <= end) : undefined;
  if (stop !== undefined) return { start: offset, end: stop, total };
  if (end < total) {
    const lineBreak = text.lastIndexOf('\n', end - 1);
    if (lineBreak >= offset + (end - offset) / 2) end = lineBreak + 1;
    else if (end - 1 > offset && isHighSurrogate(text.charCodeAt(end - 1))) end -= 1;
  }
  return { start: offset, end, total };
}

function jsonLength(text: string): number {
  return JSON.stringify(text).length - 2;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
