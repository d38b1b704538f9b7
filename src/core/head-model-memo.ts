/**
 * The body's `model` (head-model.ts: the last top-level one, as the API reads keys) for the cost of
 * what is new. Finding out whether a later `model` follows `messages` scans the whole body, and a
 * conversation resends its transcript on every turn: with the walk of its last request kept, the
 * walk of the next resumes after the last message both bodies share, byte for byte, and scans only
 * the new turn; the members after `messages` (the system prompt and the tools, sent the same on
 * every turn) are scanned again only when their bytes changed.
 *
 * Why the answer is the one a walk from scratch gives: the scanner is deterministic, and the memo's
 * walk read the same bytes up to the end of message k-1 (and the byte after it, where a number's end
 * is decided), so a walk of the new body reaches that boundary in the same state: the same `model`
 * seen before `messages`, the same message ends. From there it scans the new bytes as the full walk
 * would, with the same checks. The walk of the members after `messages` starts in the same state
 * whatever came before (inside the body object, after a member) and reads only their bytes: the
 * same bytes give the same outcome, so it is taken from the memo.
 */
import {
  continueArray,
  continueObject,
  JsonSyntaxError,
  scanArray,
  scanObject,
  scanValue,
  skipWhitespace,
  type ElementVisitor,
  type MemberVisitor,
} from './json-scan.js';
import { shortText } from './head-members.js';
import type { CommonPrefixLength } from './ports.js';

/** A model id is short; anything longer is not one we would find in the table (as head-model.ts). */
const MAX_MODEL_BYTES = 256;
// The body object is depth 1, as in head-members.ts; `messages` is 2.
const BODY_DEPTH = 1;
const MESSAGES_DEPTH = 2;

/** What one walk keeps for the next body of its conversation. Its `body` must not change once kept. */
export interface ModelMemo {
  readonly body: Uint8Array;
  /** The offset of the first `messages` array's `[`. */
  readonly messagesStart: number;
  /** Where each of its elements ends. */
  readonly messageEnds: readonly number[];
  /** The `model` the walk had read when it reached `messages` (the last before it). */
  readonly modelBefore: string | undefined;
  /** Where the members after `messages` begin (just past its `]`), to the body's end. */
  readonly tailStart: number;
  /** The last `model` among them, when one is; undefined when none is. */
  readonly tailModel: { readonly value: string | undefined } | undefined;
  /** Its estimated size, for the cache that holds it (rewrite/memo-cache.ts). */
  readonly bytes: number;
}

/** The model, and the memo to keep for the conversation's next body (undefined: keep none). */
export interface ModelRead {
  readonly model: string | undefined;
  readonly memo: ModelMemo | undefined;
}

/**
 * `readBodyModel(b)`, resumed from `memo` (a walk of an earlier body of the same conversation)
 * where the two bodies agree. `commonPrefixLength` compares them (natively at the edge). Never throws.
 */
export function readBodyModelResumed(b: Uint8Array, memo: ModelMemo | undefined, commonPrefixLength: CommonPrefixLength): ModelRead {
  const shared = memo === undefined ? 0 : sharedMessages(memo, commonPrefixLength(memo.body, b));
  try {
    return walk(b, memo !== undefined && shared > 0 ? { memo, count: shared } : undefined, commonPrefixLength);
  } catch (error) {
    if (error instanceof JsonSyntaxError || error instanceof RangeError) return { model: undefined, memo: undefined };
    throw error;
  }
}

/** How many of the memo's messages lie wholly in the first `prefix` bytes, with the byte after each. */
function sharedMessages(memo: ModelMemo, prefix: number): number {
  const ends = memo.messageEnds;
  let lo = 0;
  let hi = ends.length;
  // The largest k with ends[k - 1] < prefix (ends ascend).
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if (ends[mid - 1]! < prefix) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** The walk of `b`'s top-level members, from its start or from `resume`; throws on bytes that are not JSON. */
function walk(b: Uint8Array, resume: { readonly memo: ModelMemo; readonly count: number } | undefined, commonPrefixLength: CommonPrefixLength): ModelRead {
  let model: string | undefined;
  let modelBefore: string | undefined;
  let messagesStart = -1;
  let messageEnds: number[] = [];
  let tailStart = -1;
  let tailModel: { value: string | undefined } | undefined;
  const visitElement: ElementVisitor = (start, _index, depth) => {
    const end = scanValue(b, start, depth);
    messageEnds.push(end);
    return end;
  };
  // What walkHeadMembers and readBodyModel do with each member, plus the ends of the first `messages`' elements.
  const visitMember: MemberVisitor = (keyStart, keyEnd, valueStart, depth) => {
    const key = shortText(b, keyStart, keyEnd);
    if (key === 'messages' && messagesStart < 0 && b[valueStart] === 0x5b) {
      messagesStart = valueStart;
      modelBefore = model;
      tailStart = scanArray(b, valueStart, depth + 1, visitElement);
      return tailStart;
    }
    const end = scanValue(b, valueStart, depth);
    if (key !== 'model') return end;
    model = b[valueStart] === 0x22 ? shortText(b, valueStart, end, MAX_MODEL_BYTES) : undefined;
    if (tailStart >= 0) tailModel = { value: model };
    return end;
  };
  if (resume === undefined) {
    const start = skipWhitespace(b, 0);
    if (b[start] !== 0x7b) return { model: undefined, memo: undefined };
    scanObject(b, start, BODY_DEPTH, visitMember);
  } else {
    const { memo, count } = resume;
    messagesStart = memo.messagesStart;
    model = modelBefore = memo.modelBefore;
    messageEnds = memo.messageEnds.slice(0, count);
    tailStart = continueArray(b, messageEnds[count - 1]!, MESSAGES_DEPTH, count, visitElement);
    if (sameBytes(memo.body.subarray(memo.tailStart), b.subarray(tailStart), commonPrefixLength)) {
      tailModel = memo.tailModel;
      model = tailModel === undefined ? modelBefore : tailModel.value;
    } else continueObject(b, tailStart, BODY_DEPTH, visitMember);
  }
  const memo =
    messagesStart < 0 ? undefined : { body: b, messagesStart, messageEnds, modelBefore, tailStart, tailModel, bytes: b.length + 8 * messageEnds.length };
  return { model, memo };
}

function sameBytes(a: Uint8Array, b: Uint8Array, commonPrefixLength: CommonPrefixLength): boolean {
  return a.length === b.length && commonPrefixLength(a, b) === a.length;
}
