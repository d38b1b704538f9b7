/**
 * The working set (docs/shed.md and docs/rescue.md, "The working set"): what the model brought
 * back stays in front of it. One rule that both kinds of epoch ask (tool-results/tool-results-latch.ts and
 * spans/spans-latch.ts), decided from the body and what the epochs froze, so replay and the proxy agree:
 *
 * - the answer of every call that brought stored text back (a `restore` over MCP, a Read of a
 *   span's `.md`/`.json` or of an elided file: core/shed/restore-call.ts) made since the person's
 *   latest prompt (the newest user message with a text of their own, core/shed/message-facts.ts);
 * - the answer of every call that brought back what the latest epoch took out: it came back since
 *   that epoch, so the next epoch taking it again would be a thrash (the same text out twice by two
 *   epochs in a row);
 * - and, for the rest of the conversation, the newest answer that brought back a block or span
 *   brought back twice or more (its refault count: the calls in the body, or the conversation
 *   record's `bringBacks` when it counted more, since the calls themselves may have been shed), so
 *   a text that refaults stays.
 *
 * An epoch plans around it: a tool-result epoch leaves those answers alone, a span ends before the
 * first of them. Only the window takes it out (core/shed/plan-to-fit.ts, an overflow latch).
 */
import { itemsOfEpoch } from './kind-record.js';
import { shasReadBack } from '../detect-refaults.js';
import { readToolCalls, type ToolCall } from '../read-tool-calls.js';
import { readMessagesFacts, type MessageFactsReader } from '../shed/message-facts.js';
import { isRestoreCall } from '../shed/restore-call.js';
import type { TranscriptIndex } from '../transcript-index-types.js';
import type { Epoch } from '../epoch-types.js';
import { itemsOfKind, type FrozenItems } from './frozen-items.js';
import { epochKindInfos, type EpochKindInfo } from './kind-info.js';

/** Reads every tool call of a body by its id: the API dialect's `calls` (core/dialects/dialect.ts). */
export type CallReader = (body: Uint8Array, index: TranscriptIndex) => ReadonlyMap<string, ToolCall>;

/** Reads back this many times or more: in the working set for the rest of the conversation. */
export const PINNING_REFAULTS = 2;

/** The answers that stay in front of the model. */
export interface WorkingSet {
  /** The tool_use ids whose tool_results stay. */
  readonly calls: ReadonlySet<string>;
  /** The first message holding one of those answers; -1 when none. */
  readonly firstMessage: number;
  /** The last message holding one of those answers; -1 when none. */
  readonly lastMessage: number;
  /** The bytes of those answers (their tool_result blocks). */
  readonly bytes: number;
  /** The person's latest prompt, by message; -1 when none. */
  readonly promptAt: number;
  /**
   * The part no epoch ever takes (issue 39): the answers of the calls made since the person's
   * latest prompt. The rest of `calls` (brought back since the latest epoch, or twice) the
   * window may still force out.
   */
  readonly sincePrompt: WorkingSetPart;
  /** Every answer that brought stored text back, in or out of the set, by tool_use id: what an epoch's take is weighed against. */
  readonly answers: ReadonlyMap<string, AnswerAt>;
}

/** Where a bring-back's answer lies: its message and the bytes of its tool_result block. */
export interface AnswerAt {
  readonly message: number;
  readonly bytes: number;
}

/** Some of the working set's answers: their ids, first and last message (-1 when none) and bytes. */
export interface WorkingSetPart {
  readonly calls: ReadonlySet<string>;
  readonly firstMessage: number;
  readonly lastMessage: number;
  readonly bytes: number;
}

const NO_PART: WorkingSetPart = { calls: new Set(), firstMessage: -1, lastMessage: -1, bytes: 0 };

/** An empty working set. */
export const NO_WORKING_SET: WorkingSet = { ...NO_PART, promptAt: -1, sincePrompt: NO_PART, answers: new Map() };

/**
 * The working set of a body. `stored` is every sha256 the conversation's epochs froze, of every
 * kind (`frozenShas`), against which read-backs are counted; `latest` those its latest epoch froze;
 * `counted` the record's bring-back counts (ConversationRecord.bringBacks); `readFacts` and
 * `readCalls` read the body's messages and calls as its dialect does (the Messages API's by default).
 */
export function workingSetOf(
  body: Uint8Array,
  index: TranscriptIndex,
  stored: ReadonlySet<string>,
  latest: ReadonlySet<string> = new Set(),
  readFacts: MessageFactsReader = readMessagesFacts,
  counted: Readonly<Record<string, number>> = {},
  readCalls: CallReader = readToolCalls,
): WorkingSet {
  const calls = [...readCalls(body, index).values()].filter(isRestoreCall);
  if (calls.length === 0) return NO_WORKING_SET;
  const promptAt = readFacts(body, index).findLastIndex((f) => f.prompt);
  const answerAt = new Map<string, AnswerAt>();
  for (const result of index.toolResults) answerAt.set(result.toolUseId, { message: result.messageIndex, bytes: result.end - result.start });
  const kept = new Set<string>();
  const sincePrompt = new Set<string>();
  const answers = new Map<string, AnswerAt>();
  const newestOf = new Map<string, { id: string; count: number }>();
  for (const call of calls) {
    const at = answerAt.get(call.id);
    if (at === undefined) continue;
    answers.set(call.id, at);
    if (at.message > promptAt) {
      kept.add(call.id);
      sincePrompt.add(call.id);
    }
    for (const sha of shasReadBack(call, stored)) {
      if (latest.has(sha)) kept.add(call.id);
      newestOf.set(sha, { id: call.id, count: (newestOf.get(sha)?.count ?? 0) + 1 });
    }
  }
  for (const [sha, { id, count }] of newestOf) if (Math.max(count, counted[sha] ?? 0) >= PINNING_REFAULTS) kept.add(id);
  return { ...partOf(kept, answerAt), promptAt, sincePrompt: partOf(sincePrompt, answerAt), answers };
}

function partOf(calls: ReadonlySet<string>, answerAt: ReadonlyMap<string, AnswerAt>): WorkingSetPart {
  let firstMessage = -1;
  let lastMessage = -1;
  let bytes = 0;
  for (const id of calls) {
    const at = answerAt.get(id)!;
    bytes += at.bytes;
    if (firstMessage < 0 || at.message < firstMessage) firstMessage = at.message;
    lastMessage = Math.max(lastMessage, at.message);
  }
  return { calls, firstMessage, lastMessage, bytes };
}

/** The bytes of the bring-back answers (any, in the set or not) lying in messages `first` to `last`. */
export function broughtBackIn(set: WorkingSet, first: number, last: number): number {
  let bytes = 0;
  for (const at of set.answers.values()) if (at.message >= first && at.message <= last) bytes += at.bytes;
  return bytes;
}

/**
 * Every sha256 a conversation's frozen items name, of every kind (kind-info.ts `filesOf`): the
 * built-ins' blocks and spans and a registered kind's originals alike, so a read-back of any of
 * them is counted.
 */
export function frozenShas(items: FrozenItems): Set<string> {
  return shasNamed((kind) => itemsOfKind(items, kind.tag));
}

/** The sha256s one epoch froze, of every kind: the latest epoch's are the working set's `latest`. */
export function shasFrozenBy(epoch: Epoch): string[] {
  return [...shasNamed((kind) => itemsOfEpoch(epoch, kind))];
}

/** The sha256s every kind's files name, for the items `itemsOf` gives of each kind (an epoch's, or a conversation's). */
function shasNamed(itemsOf: (kind: EpochKindInfo) => readonly unknown[]): Set<string> {
  const shas = new Set<string>();
  for (const kind of epochKindInfos()) {
    for (const item of itemsOf(kind)) for (const file of kind.filesOf(item)) shas.add(file.sha256);
  }
  return shas;
}

/** What the working set is read from: a body, its index, what the conversation froze. */
export interface WorkingSetAsk {
  readonly body: Uint8Array;
  readonly index: TranscriptIndex;
  /** What the conversation's epochs froze, by kind (frozen-items.ts). */
  readonly items: FrozenItems;
  /** What the latest epoch froze, of every kind (`shasFrozenBy`); absent: the last span's, if any. */
  readonly latest?: readonly string[];
  /** The record's bring-back counts (ConversationRecord.bringBacks); absent: the body's calls alone count. */
  readonly bringBacks?: Readonly<Record<string, number>>;
  /** How the body's calls are read (the API dialect's `calls`); absent: as the Messages API lists them. */
  readonly readCalls?: CallReader;
  /** How the body's messages are read (the API dialect's `messageFacts`); absent: as the Messages API reads them. */
  readonly readFacts?: MessageFactsReader;
}

const ASKED = new WeakMap<WorkingSetAsk, WorkingSet>();

/**
 * The working set of an ask (core/epochs/epoch-planner.ts), read once per ask however many times
 * a kind weighs it. A body the rules cannot read has none: the epoch plans as before.
 */
export function workingSetOfAsk(ask: WorkingSetAsk): WorkingSet {
  let set = ASKED.get(ask);
  if (set === undefined) {
    try {
      const spans = ask.items.span;
      const latest = ask.latest ?? (spans.length === 0 ? [] : [spans[spans.length - 1]!.sha256]);
      set = workingSetOf(ask.body, ask.index, frozenShas(ask.items), new Set(latest), ask.readFacts, ask.bringBacks, ask.readCalls);
    } catch {
      set = NO_WORKING_SET;
    }
    ASKED.set(ask, set);
  }
  return set;
}

/** The ordinals of the tool_results in the working set (or in one part of it). */
export function workingSetOrdinals(index: TranscriptIndex, set: Pick<WorkingSetPart, 'calls'>): Set<number> {
  const ordinals = new Set<number>();
  if (set.calls.size === 0) return ordinals;
  for (const result of index.toolResults) if (set.calls.has(result.toolUseId)) ordinals.add(result.ordinal);
  return ordinals;
}

/** The ordinals of the tool_results that answer a bring-back (any, in the set or not). */
export function broughtBackOrdinals(index: TranscriptIndex, set: WorkingSet): Set<number> {
  const ordinals = new Set<number>();
  if (set.answers.size === 0) return ordinals;
  for (const result of index.toolResults) if (set.answers.has(result.toolUseId)) ordinals.add(result.ordinal);
  return ordinals;
}
