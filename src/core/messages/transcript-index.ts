/**
 * The transcript index: where each message, content block and tool_result of a Messages API
 * request body sits, as byte offsets into the raw body. Built in one validating pass.
 */
import { buildIndex } from './build-index.js';
import { ShapeError } from './index-shape-error.js';
import { JsonSyntaxError, scanDocument } from '../json-scan.js';
import type { IndexOutcome, ResumableIndex } from '../transcript-index-types.js';

export type {
  BlockInfo,
  IndexFailure,
  IndexOutcome,
  MessageInfo,
  ResumableIndex,
  Span,
  ToolResultContent,
  ToolResultInfo,
  TranscriptIndex,
} from '../transcript-index-types.js';
export { resumeOffset, toolResultsBefore } from './index-boundaries.js';

/** Indexes a Messages API request body given as raw UTF-8 bytes. */
export function indexTranscript(body: Uint8Array): IndexOutcome {
  const outcome = indexResumable(body);
  return outcome.kind === 'indexed' ? { kind: 'indexed', index: outcome.resumable.index } : outcome;
}

/** `indexTranscript`, keeping what a later resume needs. Never throws. */
export function indexResumable(body: Uint8Array): { readonly kind: 'indexed'; readonly resumable: ResumableIndex } | Extract<IndexOutcome, { kind: 'failed' }> {
  try {
    return { kind: 'indexed', resumable: buildIndex(body, undefined) };
  } catch (error) {
    if (error instanceof ShapeError) return shapeOrSyntax(body, error);
    if (error instanceof JsonSyntaxError) return { kind: 'failed', reason: 'not_json', detail: error.message };
    if (error instanceof RangeError) return { kind: 'failed', reason: 'not_json', detail: 'nesting too deep' };
    throw error;
  }
}

/**
 * The index of `body`, scanning only from the end of `from`'s message `messageCount - 1` (from
 * the `[` of `messages` when 0): messages before it and their tool results are `from`'s own. The
 * caller promises that `body` holds the same bytes as `from`'s body up to that point (the `[`
 * included); then the scan reaches it in the same state and the result equals
 * `indexResumable(body)`. `undefined` when the rest does not index: the full path says why.
 */
export function resumeIndex(body: Uint8Array, from: ResumableIndex, messageCount: number): ResumableIndex | undefined {
  if (!Number.isInteger(messageCount) || messageCount < 0 || messageCount > from.index.messages.length) return undefined;
  try {
    return buildIndex(body, { from, messageCount });
  } catch {
    return undefined;
  }
}

// The index reports the first fault it meets in one pass; a shape fault met before a syntax
// fault further on must still say not_json, so the (rare) failure path scans the whole body.
function shapeOrSyntax(body: Uint8Array, error: ShapeError): Extract<IndexOutcome, { kind: 'failed' }> {
  try {
    scanDocument(body);
  } catch (syntax) {
    if (syntax instanceof JsonSyntaxError) return { kind: 'failed', reason: 'not_json', detail: syntax.message };
    if (syntax instanceof RangeError) return { kind: 'failed', reason: 'not_json', detail: 'nesting too deep' };
    throw syntax;
  }
  return { kind: 'failed', reason: error.reason, detail: error.message };
}
