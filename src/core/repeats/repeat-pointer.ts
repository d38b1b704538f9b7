/**
 * The pointer a repeat's `content` becomes (docs/shed.md, "A text is carried once"): what the
 * answer said before its text (a restore's header, the notice before a cut Read: where the next
 * page starts) verbatim, then one line that says which earlier answers of this conversation hold
 * the text and names the file that keeps this answer's exact text, so `inflate` rebuilds the
 * client's bytes. A pure function of the repeat, the earlier calls' ids and the folder, so every
 * request carries the same bytes for it.
 */
import { elidedRawPath, elidedTextPath, escapeRegExp } from '../stub-paths.js';

/** How the pointer's own line begins. */
export const REPEAT_PREFIX = '[ctxshed: not repeated: ';

/** What a pointer names. */
export interface RepeatPointer {
  /** What the answer said before its text, kept verbatim ('' when nothing). */
  readonly lead: string;
  /** Bytes and sha256 of this answer's text (its file, `<elided>/<sha256>.txt`). */
  readonly bytes: number;
  readonly sha256: string;
  /** The sha256 of the content value's exact JSON when the text alone does not rebuild it (`<elided>/<rawSha256>.json`). */
  readonly rawSha256?: string;
  /** The tool_use ids of the earlier answers that hold the text, in order. */
  readonly earlier: readonly string[];
}

/** The pointer's text (not yet JSON-encoded). */
export function renderRepeatPointer(pointer: RepeatPointer, elidedDir: string): string {
  const where = pointer.earlier.length === 1 ? `the answer to ${pointer.earlier[0]}` : `the answers to ${pointer.earlier.join(', ')}, read in order`;
  const raw = pointer.rawSha256 === undefined ? '' : `; its exact JSON in ${elidedRawPath(elidedDir, pointer.rawSha256)}`;
  return (
    `${pointer.lead}${REPEAT_PREFIX}the text this answer brought back already stands, whole, in this conversation, in ${where}. ` +
    `This answer is kept, exactly, in ${elidedTextPath(elidedDir, pointer.sha256)} (${pointer.bytes} bytes, sha256 ${pointer.sha256}${raw}).]`
  );
}

const ID = '[A-Za-z0-9_-]+';
/** The leads a pointer may keep: a restore's header line, or the notice before a cut Read (brought-back-copy.ts). */
const LEAD = '(\\[ctxshed restore: [^\\n]*\\]\\n|<system-reminder>[\\s\\S]*?</system-reminder>\\n+)?';
const POINTER_PATTERN = new RegExp(
  `^${LEAD}${escapeRegExp(REPEAT_PREFIX)}the text this answer brought back already stands, whole, in this conversation, in ` +
    `(?:the answer to (${ID})|the answers to (${ID}(?:, ${ID})+), read in order)\\. ` +
    'This answer is kept, exactly, in [^\\n]*/([0-9a-f]{64})\\.txt \\((\\d+) bytes, sha256 \\4(?:; its exact JSON in [^\\n]*/([0-9a-f]{64})\\.json)?\\)\\.\\]$',
);

/** Reads a pointer's text back; `undefined` when the text is not one. */
export function parseRepeatPointer(text: string): RepeatPointer | undefined {
  const m = POINTER_PATTERN.exec(text);
  if (m === null) return undefined;
  const [, lead, one, many, sha256, bytes, rawSha256] = m;
  const earlier = one !== undefined ? [one] : (many ?? '').split(', ');
  if (sha256 === undefined || bytes === undefined) return undefined;
  return { lead: lead ?? '', bytes: Number(bytes), sha256, ...(rawSha256 === undefined ? {} : { rawSha256 }), earlier };
}
