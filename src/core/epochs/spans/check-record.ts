/**
 * The record check of the span kind's items (docs/state.md, "Its span"): an epoch sheds one span,
 * checked field by field so verify can list every fault, and it starts after the last span an
 * earlier epoch shed (message 0, the head, is never shed).
 */

/** The longest tombstone a record keeps, in characters (code points). */
const TOMBSTONE_MAX_CHARS = 200;

/** The check of one record's spans, epoch by epoch in order (`at` names the epoch): each after the last an earlier epoch shed. */
export function spansChecker(): (spans: readonly unknown[], at: string) => string[] {
  let after = 0;
  return (spans, at) => {
    const problems = spans.length === 1 ? [] : [`${at}: items.span holds ${spans.length} spans, not one`];
    const before = after;
    for (const span of spans) {
      problems.push(...checkFrozenSpan(span, at, before));
      after = spanEnd(span, after);
    }
    return problems;
  };
}

/**
 * What is wrong with an epoch's `span` (at `at`); `after` is the last message ordinal of the
 * spans before it (0 for the head), since a later span never reaches back into an earlier one.
 */
export function checkFrozenSpan(span: unknown, at: string, after: number): string[] {
  if (typeof span !== 'object' || span === null || Array.isArray(span)) return [`${at}: span is not an object`];
  const fields = span as Record<string, unknown>;
  const problems: string[] = [];
  const need = (ok: boolean, problem: string): void => void (ok || problems.push(`${at}: span ${problem}`));
  const { first, last } = fields;
  need(isCount(first) && first > after, `first is not a message ordinal after ${after}`);
  need(isCount(last) && (!isCount(first) || last >= first), 'last is not a message ordinal at or after first');
  need(typeof fields['sha256'] === 'string' && /^[0-9a-f]{64}$/.test(fields['sha256']), 'sha256 is not 64 lowercase hex digits');
  need(isCount(fields['bytes']) && fields['bytes'] > 0, 'bytes is not a positive integer');
  const pins = fields['pins'];
  need(Array.isArray(pins) && pins.every((p) => typeof p === 'string'), 'pins is not an array of strings');
  const notices = fields['notices'];
  need(
    notices === undefined || (Array.isArray(notices) && notices.length > 0 && notices.every((n) => typeof n === 'string')),
    'notices is not a non-empty array of strings',
  );
  const prompt = fields['prompt'];
  need(prompt === undefined || (typeof prompt === 'string' && prompt.length > 0), 'prompt is not a non-empty string');
  const tombstone = fields['tombstone'];
  need(
    tombstone === undefined || (typeof tombstone === 'string' && Array.from(tombstone).length <= TOMBSTONE_MAX_CHARS),
    `tombstone is not a string of at most ${TOMBSTONE_MAX_CHARS} characters`,
  );
  const pages = fields['readPages'];
  need(pages === undefined || isReadPages(pages), 'readPages is not a run of [offset, limit] pages from line 1, each starting where the last ended');
  return problems;
}

/** `[[1, a], [1 + a, b], ...]`: two or more pages of whole lines, each after the last (core/shed/read-pages.ts). */
function isReadPages(pages: unknown): boolean {
  if (!Array.isArray(pages) || pages.length < 2) return false;
  let next = 1;
  for (const page of pages) {
    if (!Array.isArray(page) || page.length !== 2 || page[0] !== next || !isCount(page[1]) || page[1] < 1) return false;
    next += page[1] as number;
  }
  return true;
}

/** The last message ordinal a well-formed span covers, else `after` unchanged. */
export function spanEnd(span: unknown, after: number): number {
  const last = typeof span === 'object' && span !== null ? (span as Record<string, unknown>)['last'] : undefined;
  return isCount(last) ? Math.max(after, last) : after;
}

function isCount(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) >= 0;
}
