/**
 * Which API a request body speaks. The plan, stub, rewrite, inflate and self-check are shared:
 * each API only brings its own index, which maps its body onto the one neutral shape
 * (`TranscriptIndex`): its turns or items as messages, its tool outputs as tool_result blocks
 * (`toolResults`, with the span of the value a stub replaces), its tool calls as tool_use blocks.
 */
import { firstPromptExcerpt } from './conversation-key.js';
import { detectRefaults, type Refault } from './detect-refaults.js';
import type { Epoch } from './epoch-types.js';
import { readPromptTooLong, type TooLongRefusal } from './prompt-too-long.js';
import { readNewestToolCalls, readToolCalls, type ToolCall } from './read-tool-calls.js';
import { indexTranscript, type IndexOutcome, type TranscriptIndex } from './transcript-index.js';

/** The APIs ctxshed can index. */
export type ApiName = 'messages' | 'responses' | 'chat';

/**
 * What an API supports, as data: the engine, the latch and the self-checks ask these fields
 * instead of asking which API it is (docs/openai.md, "What each API supports").
 */
export interface DialectCapabilities {
  /**
   * Shed mode: a span of whole messages replaced by one stub message. Only where one user message
   * may stand in for any run of turns without breaking the API's own rules.
   */
  readonly spans: boolean;
  /** Thinking blocks, and the prefix check that binds them to the bytes before them. */
  readonly thinking: boolean;
  /** `--labels model`: ctxshed's classifier call speaks this API. */
  readonly modelLabels: boolean;
  /**
   * The conversation is named by its first message alone, so a request with no epoch and no latch
   * due goes through unindexed, and an index may resume from the last rewrite's (a memo).
   */
  readonly keyFromHead: boolean;
}

/** One API's way of reading a request body, and what it supports. */
export interface ApiDialect {
  readonly name: ApiName;
  /** Indexes a request body of this API into the neutral shape. Never throws. */
  readonly index: (body: Uint8Array) => IndexOutcome;
  readonly supports: DialectCapabilities;
  /**
   * The API's refusal of a request as over the model's context, read from a 400's body text, with
   * the counts it names; undefined for any other body (docs/rescue.md, "Rescue on overflow").
   */
  readonly tooLong: (text: string) => TooLongRefusal | undefined;
  /** Every tool call of a request by its id, as the labels read them. Never throws. */
  readonly calls: (body: Uint8Array, index: TranscriptIndex) => Map<string, ToolCall>;
  /** The calls the model made since the client's last request (read for refaults). Never throws. */
  readonly newestCalls: (body: Uint8Array, index: TranscriptIndex) => ToolCall[];
  /** Which of those calls read an elided block back (docs/design.md "Refault"). */
  readonly refaults: (calls: readonly ToolCall[], epochs: readonly Epoch[]) => Refault[];
  /** The person's first prompt, shortened, for the epoch record. */
  readonly firstPrompt: (body: Uint8Array, index: TranscriptIndex) => string;
}

/** The Anthropic Messages API (`POST /v1/messages`): the default everywhere. */
export const MESSAGES_API: ApiDialect = {
  name: 'messages',
  index: indexTranscript,
  supports: { spans: true, thinking: true, modelLabels: true, keyFromHead: true },
  tooLong: readPromptTooLong,
  calls: readToolCalls,
  newestCalls: readNewestToolCalls,
  refaults: detectRefaults,
  firstPrompt: (body, index) => firstPromptExcerpt(body, index),
};
