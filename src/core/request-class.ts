/**
 * Claude Code's request class (2.1.332: the `x-claude-code-request-class` header on every request,
 * read from its binary: `main`, `subagent`, `workflow`, `compaction`, `auxiliary`, `side_reply`),
 * and what each class means to the engine (docs/rescue.md, "Request classes"). Pure.
 */

/** The header that names the class, and the one a compaction request also carries. */
export const REQUEST_CLASS_HEADER = 'x-claude-code-request-class';
export const COMPACTION_HEADER = 'x-claude-code-compaction';

/** The classes Claude Code sends, as its binary lists them. */
export const REQUEST_CLASSES = ['main', 'subagent', 'workflow', 'compaction', 'auxiliary', 'side_reply'] as const;

/** A class the client named; `unknown` for a value not in the list (a newer client's). */
export type RequestClass = (typeof REQUEST_CLASSES)[number] | 'unknown';

/**
 * The class of a request: from the class header, else `compaction` when only the compaction
 * header is there, else `undefined` (a client that names none: every Codex request, Claude Code
 * before the header).
 */
export function readRequestClass(classHeader: string | undefined, compactionHeader: string | undefined): RequestClass | undefined {
  if (classHeader !== undefined) {
    const value = classHeader.trim().toLowerCase();
    return (REQUEST_CLASSES as readonly string[]).includes(value) ? (value as RequestClass) : 'unknown';
  }
  return compactionHeader === undefined ? undefined : 'compaction';
}

/**
 * A side call (a title, a summary for the UI, a side question's reply): it never becomes a
 * conversation of its own, never latches and gives no reading; when it carries a conversation
 * that has epochs, it is sent through them, so it reads that conversation's cache.
 */
export function isSideCall(cls: RequestClass | undefined): boolean {
  return cls === 'auxiliary' || cls === 'side_reply';
}

/**
 * Whether a request of this class may latch an epoch on the threshold. A side call never does; a
 * compaction request neither: it is the conversation's last request (the client goes on from its
 * summary, a new first message), so a new epoch would re-write the cache for one request. It is
 * still sent through the epochs it has, and rescued on an overflow.
 */
export function mayLatchOnThreshold(cls: RequestClass | undefined): boolean {
  return !isSideCall(cls) && cls !== 'compaction';
}
