/**
 * The rewrite's check of its own output (docs/design.md invariant 6): the output is re-indexed from
 * its bytes, and must have the same messages, blocks, tool_use/tool_result pairs and thinking
 * blocks as the input, the same bytes outside `messages`, and a stub exactly where one was put.
 */
import type { ApiDialect } from '../../dialects/dialect.js';
import { bytesEqual } from '../../block-text.js';
import type { Splice } from '../../splices.js';
import { indexResumable, type ResumableIndex, type TranscriptIndex } from '../../messages/transcript-index.js';
import { checkOutsideMessages } from '../check-outside.js';

/**
 * A spliced block: a tool_result's ordinal and the splice that replaced its content, or a part of
 * the deeper cut's (`at`: its message and block) and the splice that replaced its string.
 */
export interface StubbedBlock {
  readonly ordinal: number;
  readonly splice: Splice;
  readonly at?: { readonly messageIndex: number; readonly blockIndex: number };
}

/** The output's own index when the output passes (a memo keeps it), else what failed. */
export type CheckOutcome = { readonly ok: true; readonly after: ResumableIndex } | { readonly ok: false; readonly failure: string };

/** `undefined` when the output passes; else what failed. `api` re-indexes the output (Messages by default). */
export function checkRewrite(
  input: Uint8Array,
  before: TranscriptIndex,
  output: Uint8Array,
  stubbed: readonly StubbedBlock[],
  api?: ApiDialect,
): string | undefined {
  // An API without a resumable index (supports.keyFromHead) is checked by a fresh index of the output.
  if (api !== undefined && !api.supports.keyFromHead) {
    const indexed = api.index(output);
    if (indexed.kind !== 'indexed') return `output does not index: ${indexed.reason}: ${indexed.detail}`;
    return checkIndexedRewrite(input, before, output, indexed.index, stubbed, CHECK_ALL);
  }
  const outcome = checkOutput(input, before, output, stubbed);
  return outcome.ok ? undefined : outcome.failure;
}

/** Per message, the positions of the thinking blocks removed from it (none by default). */
export type RemovedBlocks = ReadonlyMap<number, ReadonlySet<number>>;

const NONE_REMOVED: RemovedBlocks = new Map();

/** `checkRewrite`, keeping the output's index when it passes. */
export function checkOutput(
  input: Uint8Array,
  before: TranscriptIndex,
  output: Uint8Array,
  stubbed: readonly StubbedBlock[],
  removed: RemovedBlocks = NONE_REMOVED,
): CheckOutcome {
  const outcome = indexResumable(output);
  if (outcome.kind !== 'indexed') return { ok: false, failure: `output does not index: ${outcome.reason}: ${outcome.detail}` };
  const failure = checkIndexedRewrite(input, before, output, outcome.resumable.index, stubbed, CHECK_ALL, removed);
  return failure === undefined ? { ok: true, after: outcome.resumable } : { ok: false, failure };
}

/** The first message and the first tool_result ordinal still to check. */
export interface CheckFrom {
  readonly message: number;
  readonly toolResult: number;
}

const CHECK_ALL: CheckFrom = { message: 0, toolResult: 0 };

/**
 * The check given the output's index (`after`, built from the output's own bytes). Messages before
 * `from.message` and tool results before `from.toolResult` are not compared again: the
 * incremental rewrite passes them only when they, their bytes in input and output and their
 * stubs are those of an earlier output that passed this check in full (incremental-rewrite.ts).
 * The bytes outside `messages` and every count are always checked.
 */
export function checkIndexedRewrite(
  input: Uint8Array,
  before: TranscriptIndex,
  output: Uint8Array,
  after: TranscriptIndex,
  stubbed: readonly StubbedBlock[],
  from: CheckFrom,
  removed: RemovedBlocks = NONE_REMOVED,
): string | undefined {
  const outside = checkOutsideMessages(input, before, output, after);
  if (outside !== undefined) return outside;
  const results = stubbed.filter((s) => s.at === undefined);
  const parts = partSplicesByMessage(stubbed);
  return checkMessages({ input, output }, before, after, from.message, removed, parts) ?? checkToolResults(before, after, output, results, from.toolResult);
}

/** The parts' splices, by the message they lie in. */
function partSplicesByMessage(stubbed: readonly StubbedBlock[]): Map<number, Splice[]> {
  const byMessage = new Map<number, Splice[]>();
  for (const s of stubbed) {
    if (s.at === undefined) continue;
    const list = byMessage.get(s.at.messageIndex) ?? [];
    list.push(s.splice);
    byMessage.set(s.at.messageIndex, list);
  }
  return byMessage;
}

function checkMessages(
  bodies: { readonly input: Uint8Array; readonly output: Uint8Array },
  before: TranscriptIndex,
  after: TranscriptIndex,
  first: number,
  removed: RemovedBlocks,
  parts: ReadonlyMap<number, readonly Splice[]>,
): string | undefined {
  if (after.messages.length !== before.messages.length) return 'message count changed';
  for (const m of removed.keys()) if (m < first) return `thinking removed from message ${m}, before the checked part`;
  for (let m = first; m < before.messages.length; m++) {
    const was = before.messages[m]!;
    const now = after.messages[m]!;
    const gone = removed.get(m);
    // Exactly the frozen thinking blocks went: the rest keep their order, type, id and length.
    const kept = gone === undefined ? was.blocks : was.blocks.filter((b, k) => !(gone.has(k) && (b.type === 'thinking' || b.type === 'redacted_thinking')));
    if (gone !== undefined && kept.length !== was.blocks.length - gone.size) return `message ${m}: a removed block is not a thinking block`;
    if (now.role !== was.role || now.content.kind !== was.content.kind || now.blocks.length !== kept.length) {
      return `message ${m} changed shape`;
    }
    if (now.content.kind === 'array' && now.blocks.length === 0 && was.blocks.length > 0) return `message ${m} lost all its content`;
    const spliced = parts.get(m) ?? [];
    for (const [k, block] of kept.entries()) {
      const nowBlock = now.blocks[k]!;
      if (nowBlock.type !== block.type || nowBlock.id !== block.id) return `message ${m} block ${k} changed`;
      // Only tool_result content and the deeper cut's strings may change; every other block
      // (thinking and its signature included) must keep its exact length, and lies wholly outside
      // every splice. A block holding a part's string is its old bytes with exactly that stub in.
      const inside = spliced.filter((s) => s.start >= block.start && s.end <= block.end);
      if (inside.length > 0) {
        if (!holdsSplices(bodies, block, nowBlock, inside)) return `message ${m} block ${k} (${block.type}) is not its bytes with its stubs`;
      } else if (block.type !== 'tool_result' && nowBlock.end - nowBlock.start !== block.end - block.start) {
        return `message ${m} block ${k} (${block.type}) changed length`;
      }
    }
  }
  return undefined;
}

function checkToolResults(
  before: TranscriptIndex,
  after: TranscriptIndex,
  output: Uint8Array,
  stubbed: readonly StubbedBlock[],
  first: number,
): string | undefined {
  if (after.toolResults.length !== before.toolResults.length) return 'tool_result count changed';
  const stubs = new Map(stubbed.map((s) => [s.ordinal, s.splice]));
  for (let ordinal = first; ordinal < before.toolResults.length; ordinal++) {
    const was = before.toolResults[ordinal]!;
    const now = after.toolResults[ordinal]!;
    if (now.toolUseId !== was.toolUseId || now.isError !== was.isError || now.hasCacheControl !== was.hasCacheControl) {
      return `tool_result ${ordinal} changed`;
    }
    const splice = stubs.get(ordinal);
    const content = output.subarray(now.content.start, now.content.end);
    if (splice === undefined) {
      if (now.content.end - now.content.start !== was.content.end - was.content.start) return `tool_result ${ordinal} changed without a stub`;
    } else if (now.content.kind !== 'string' || content.length <= 2 || !bytesEqual(content, splice.bytes)) {
      return `tool_result ${ordinal} does not hold its stub`;
    }
  }
  return undefined;
}

/** Whether the output's block is the input's with exactly `splices` (in it, sorted or not) applied. */
function holdsSplices(
  bodies: { readonly input: Uint8Array; readonly output: Uint8Array },
  was: { readonly start: number; readonly end: number },
  now: { readonly start: number; readonly end: number },
  splices: readonly Splice[],
): boolean {
  const { input, output } = bodies;
  let i = was.start;
  let o = now.start;
  for (const s of [...splices].sort((a, b) => a.start - b.start)) {
    if (s.start < i) return false;
    const kept = s.start - i;
    if (!bytesEqual(input.subarray(i, s.start), output.subarray(o, o + kept))) return false;
    o += kept;
    if (!bytesEqual(s.bytes, output.subarray(o, o + s.bytes.length))) return false;
    o += s.bytes.length;
    i = s.end;
  }
  return now.end - o === was.end - i && bytesEqual(input.subarray(i, was.end), output.subarray(o, now.end));
}
