/** The shapes an epoch record is made of. Plain data: written by src/state, decided by the core. */
import type { ThresholdCrossed } from './latch-threshold.js';
import type { GateDecision } from './break-even.js';
import type { FrozenSpan, ShedFit } from './shed/shed-types.js';
import type { LabelRule, LedgerRow, Refetch, StubLabel } from './labels/label-types.js';
import type { FrozenThinking } from './thinking/thinking-types.js';

/**
 * What a frozen block stands for besides a tool result's content (docs/rescue.md "The deeper cut"):
 * `tool_input`, a string inside a tool call's input (a Write's content, a long command; an OpenAI
 * call's `arguments` or a custom call's `input`); `assistant_text`, an old text of the model's.
 * A block without one is a tool result's content, as every block of a record before parts.
 */
export type BlockPart = 'tool_input' | 'assistant_text';

/** Every part, for checkers and the command line. */
export const BLOCK_PARTS: readonly BlockPart[] = ['tool_input', 'assistant_text'];

/** One step of a path inside a JSON value: an object's key, or a position in an array. */
export type PathStep = string | number;

/**
 * One block frozen by an epoch: a tool_result's content (no `part`), or one part of the deeper cut,
 * a string inside a tool call's input or an assistant text (`part`): where it was and what it held.
 */
export interface FrozenBlock {
  /**
   * A tool result: its 0-based position among all tool_result blocks of `messages`, in document
   * order. A part: its position among the request's places of that part (core/part-sites.ts).
   */
  readonly ordinal: number;
  /** A tool result's `tool_use_id`; a tool input's call id; empty for an assistant text. */
  readonly toolUseId: string;
  /** UTF-8 byte count of the block's text (the elided file's size). */
  readonly bytes: number;
  /** Lowercase hex sha256 of the block's text: the elided file is `<state>/elided/<sha256>.txt`. */
  readonly sha256: string;
  /** Byte length of the original JSON of the block's `content` value, as it was sent. */
  readonly jsonBytes: number;
  /**
   * Lowercase hex sha256 of those JSON bytes. Each request checks the block against this: a hash
   * of bytes as they lie in the body, with no decoding on the hot path.
   */
  readonly jsonSha256: string;
  /**
   * Lowercase hex sha256 of the original JSON bytes of the block's `content` value, present only
   * when those bytes are not the canonical JSON encoding of the text (unusual escapes, or block
   * content). Then `<state>/elided/<rawSha256>.json` holds those exact bytes for `inflate`.
   */
  readonly rawSha256?: string;
  /**
   * Present exactly in the blocks of policy version 3+ epochs (docs/labels.md): what the block
   * was labelled, by which rule, the tool call it answered and the route back. The stub is
   * rendered from them; a block without them gets the version 2 stub, byte for byte as before.
   */
  readonly label?: StubLabel;
  readonly rule?: LabelRule;
  readonly tool?: string;
  /** The call's main input, redacted, at most 160 characters (empty when it has none). */
  readonly input?: string;
  readonly refetch?: Refetch;
  /** What the block stands for besides a tool result's content; absent: a tool result's. */
  readonly part?: BlockPart;
  /** A part's message and block in the request's index (a tool result is found by its ordinal). */
  readonly messageIndex?: number;
  readonly blockIndex?: number;
  /** A part's string value inside its block object: the keys and array positions that lead to it. */
  readonly path?: readonly PathStep[];
  /**
   * A part whose value is JSON text (an OpenAI call's `arguments`): the strings inside that text its
   * stub replaces, each by its path; every key and every other value of the text stays.
   */
  readonly within?: readonly (readonly PathStep[])[];
}

/** What names a part's place: its part, its message and block, and its path inside the block. */
export interface PartPlaceFields {
  readonly part: BlockPart;
  readonly messageIndex: number;
  readonly blockIndex: number;
  readonly path: readonly PathStep[];
}

/** A frozen part of the deeper cut: a block with its part and its place. */
export type FrozenPart = FrozenBlock & PartPlaceFields;

/** Whether a frozen (or planned, or decided) block is a part of the deeper cut rather than a tool result's content. */
export function isPart<B extends { readonly part?: BlockPart | undefined }>(block: B): block is B & PartPlaceFields {
  return block.part !== undefined;
}

/**
 * The deeper cut (docs/rescue.md): which parts besides tool results an epoch may take, and the
 * floor of each; absent from a policy, an epoch takes tool results only, as before.
 */
export interface DeepCut {
  readonly parts: readonly BlockPart[];
  /** A tool input's string (an OpenAI call's whole arguments) is taken only when its text is over this many UTF-8 bytes. */
  readonly inputMinBytes: number;
  /** An assistant text only when over this many. */
  readonly textMinBytes: number;
}

/** The policy that chose the blocks, recorded with each epoch (its lineage). */
export interface ElisionPolicy {
  readonly keepRecent: number;
  readonly minBytes: number;
  /** The deeper cut, when an epoch may take parts besides tool results (policy version 4). */
  readonly deep?: DeepCut;
}

/**
 * What an epoch freezes: tool_result contents (`rescue`) or a span of whole messages (`shed`,
 * docs/shed.md). Records written before the field existed have none: they are rescue epochs.
 */
export type EpochMode = 'rescue' | 'shed';

/** Every mode, for checkers. */
export const EPOCH_MODES: readonly EpochMode[] = ['rescue', 'shed'];

/**
 * What made an epoch latch: `threshold`, a usage reading at or over `--rescue-pct`; `overflow`,
 * the API refusing a request as too long (docs/rescue.md); `prefix_check`, the API refusing a
 * request ctxshed changed because a thinking block failed its prefix check (a correction epoch
 * that only removes thinking blocks, docs/rescue.md "Preserved thinking"); `command`, a person running
 * `ctxshed elide` on a body (its reading is an estimate from the body's bytes). Records written
 * before the field existed have none and latched on the threshold (see `triggerOf`).
 */
export type EpochTrigger = 'threshold' | 'overflow' | 'prefix_check' | 'command';

/** Every trigger, for checkers. */
export const EPOCH_TRIGGERS: readonly EpochTrigger[] = ['threshold', 'overflow', 'prefix_check', 'command'];

/** Why an epoch latched: the reading that caused it. */
export interface LatchReason {
  /** Fraction of the window, 0..1+. */
  readonly fullness: number;
  /** Fraction of the window, e.g. 0.7. */
  readonly threshold: number;
  readonly window: number;
  /**
   * input + cache creation + cache read tokens of the reading; for an overflow, the prompt's
   * tokens as the API's error counted them.
   */
  readonly contextTokens: number;
  /** Overflow only: the maximum the API's error named ("... tokens > 200000 maximum"). */
  readonly limit?: number;
  /**
   * Which threshold the reading crossed: `fullness` (the fraction above) or `tokens`
   * (`thresholdTokens`). Present when a token threshold was in force (`--rescue-tokens`, or the
   * default for windows over 200,000); absent, the fraction fired, as in every older record.
   */
  readonly crossed?: ThresholdCrossed;
  /** The token threshold in force when the epoch latched (docs/rescue.md "Thresholds"). */
  readonly thresholdTokens?: number;
  /**
   * The request came back after a gap past its cache TTL, so the cold threshold (`--cold-rescue-pct`,
   * core/cache-cold.ts) was in force: `threshold` is that one. Absent: the usual threshold.
   */
  readonly cold?: true;
}

/** What every epoch records, whatever it freezes. */
interface EpochBase {
  /** 1, 2, 3 ... in latch order. */
  readonly n: number;
  /** ISO-8601 time of the latch (recorded, never part of any stub). */
  readonly latchedAt: string;
  readonly reason: LatchReason;
  /**
   * Shed epochs of policy version 2 and before add `keepPersonTurns`, and their `keepRecent` is the
   * tool results the window kept; from version 3 they add `recentTokens`, the recent window's
   * budget (docs/shed.md), with `keepRecent` 0.
   */
  readonly policy: ElisionPolicy & { readonly name: string; readonly version: number; readonly keepPersonTurns?: number; readonly recentTokens?: number };
  /** The burst gate's figures and decision, when the epoch was gated (shed mode, or `--gate`). */
  readonly gate?: GateDecision;
  /** Shed epochs latched near the window or on an overflow: what the request was to weigh after it. */
  readonly fit?: ShedFit;
  /**
   * On a model that runs the prefix check: the epoch latched while the newest message was not a
   * person's prompt (at the gate's ceiling, or with `latchAt: 'anywhere'`), so it also removed the
   * current turn's thinking. Absent: at a prompt, another model, an overflow or correction epoch.
   */
  readonly midTurn?: true;
  /**
   * Policy version 3+: one row per block the epoch considered (every frozen block, and any it
   * kept). Inside the record, so it is written in the same atomic step as the blocks it audits.
   */
  readonly ledger?: readonly LedgerRow[];
}

/**
 * What an epoch froze, by kind tag (core/epochs/kind-info.ts): the epoch's own kind's items under
 * its `kind`, and, on a model that runs the prefix check, the thinking blocks it removes under
 * `thinking_only` (docs/rescue.md "Preserved thinking"), whatever its kind. A key is present only
 * for a kind the epoch froze items of, and the epoch's own kind always is.
 */
export interface EpochItems {
  readonly tool_results?: readonly FrozenBlock[];
  /** One span: a span epoch sheds one run of whole messages. */
  readonly span?: readonly FrozenSpan[];
  /**
   * The thinking blocks the epoch removes from every later request (those after the first place it
   * changes that no earlier epoch removed), in ordinal order. Absent: none (other models, older records).
   */
  readonly thinking_only?: readonly FrozenThinking[];
  /** A registered kind's items, under its tag. */
  readonly [tag: string]: readonly unknown[] | undefined;
}

/**
 * A numbered, frozen decision: "these items are taken from now on", one shape for every kind. A
 * record written as `ctxshed.conversation/1` (with `blocks`, `span`, `thinking` and `mode`) is
 * upgraded to it once, on read (core/upgrade-record.ts).
 */
export interface Epoch extends EpochBase {
  /**
   * The kind that latched it: `tool_results` (rescue), `span` (shed), `thinking_only` (a correction:
   * trigger `prefix_check`, it only removes thinking blocks), or a registered kind's tag.
   */
  readonly kind: KindTag;
  /** Absent: the epoch latched on the threshold. `command` only on a kind `byCommand` allows. */
  readonly trigger?: EpochTrigger;
  readonly items: EpochItems;
}

/** The built-in kinds: tool results, a span of whole messages, or only thinking blocks (a correction). */
export type EpochKind = 'tool_results' | 'span' | 'thinking_only';

/**
 * Any kind's tag: a built-in's, or one a kind registered (core/epochs/kind-info.ts
 * `registerEpochKind`, checked there: lowercase letters, digits and `_`).
 */
export type KindTag = EpochKind | (string & {});

/** The format tag of a conversation record; bump the number when the shape changes. */
export const CONVERSATION_FORMAT = 'ctxshed.conversation/2';

/** The format tag of a record written before one shape for every kind: upgraded on read (core/upgrade-record.ts). */
export const CONVERSATION_FORMAT_V1 = 'ctxshed.conversation/1';

/** The longest `firstPrompt` excerpt a record keeps, in UTF-16 code units. */
export const FIRST_PROMPT_MAX_CHARS = 200;

/** The content of `<state>/conversations/<key>.json`: who the conversation is, and its epochs. */
export interface ConversationRecord {
  readonly format: typeof CONVERSATION_FORMAT;
  /** 64 lowercase hex digits; also the file's name. */
  readonly key: string;
  /** The `x-claude-code-agent-id` header, when the client sent one. */
  readonly agentId: string | null;
  /** The start of the first user prompt, so `ctxshed ls` can show which conversation this is. */
  readonly firstPrompt: string;
  readonly model: string;
  /** ISO-8601 time the record was first written. */
  readonly createdAt: string;
  /** Numbered 1..n in latch order. */
  readonly epochs: readonly Epoch[];
  /**
   * Present once the API refused a request ctxshed changed because a thinking block failed its
   * prefix check: from then on the conversation is treated as running it, whatever its model.
   */
  readonly prefixCheck?: PrefixCheckLearned;
  /**
   * How many calls brought each stored text (a block's or span's sha256) back, counted as the
   * requests carrying them arrived (rescue/count-bring-backs.ts): the working set's refault count
   * (core/epochs/working-set.ts), which survives the calls themselves being shed. Absent in records
   * from before it, and until something is brought back.
   */
  readonly bringBacks?: Readonly<Record<string, number>>;
}

/** When and on which model a conversation was seen running the prefix check. */
export interface PrefixCheckLearned {
  /** The request's `model`. */
  readonly model: string;
  /** ISO-8601 time of the refusal. */
  readonly learnedAt: string;
}
