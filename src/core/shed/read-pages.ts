/**
 * The pages a span's `.md` is read in with the client's own Read (issue 39; docs/shed.md, "Reading
 * a span back"). Claude Code 2.1.332 and 2.1.197 give one Read at most 25,000 tokens of the API's
 * count: of a 1,581-line, 104 KB file both showed lines 1 to 1,268 (88,920 characters), 2.1.197
 * with a notice naming the next page in the answer, 2.1.332 with its notice in a `role: "system"`
 * message after it; a line past the cap is cut inside. So a span whose `.md` is longer than a page
 * names the pages in its stub: line ranges (Read's `offset` and `limit`) of at most
 * READ_PAGE_CHARS characters each as Read shows them, line numbers included, whole under the cap
 * even at 1.6 characters a token. Pure.
 */

/** The most characters one page takes as Read shows it (`<number>\t<line>\n` a line). */
export const READ_PAGE_CHARS = 40_000;

/** One page: Read's `offset` (the first line, 1-based) and `limit` (how many lines). */
export type ReadPage = readonly [offset: number, limit: number];

/**
 * The pages of `text` as Read numbers its lines; empty when one Read gives it whole. A line longer
 * than a page is a page of its own (restore gives it whole, in pages of characters).
 */
export function readPagesOf(text: string): ReadPage[] {
  const lines = text.split('\n');
  const pages: ReadPage[] = [];
  let first = 1;
  let size = 0;
  for (let n = 1; n <= lines.length; n++) {
    const shown = String(n).length + 1 + lines[n - 1]!.length + 1;
    if (size > 0 && size + shown > READ_PAGE_CHARS) {
      pages.push([first, n - first]);
      first = n;
      size = 0;
    }
    size += shown;
  }
  if (pages.length === 0) return [];
  pages.push([first, lines.length - first + 1]);
  return pages;
}
