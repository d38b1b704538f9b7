/** The facts shed mode reads of each message (message-facts.ts for the Messages API, responses-facts.ts for Responses items). */
import type { Span, TranscriptIndex } from '../transcript-index-types.js';

/**
 * Reads the facts of every message of an indexed body, in the body's API's words: the dialect's
 * `messageFacts` (core/dialects/dialect.ts). The body must be the one `index` was built from.
 */
export type MessageFactsReader = (body: Uint8Array, index: TranscriptIndex) => MessageFacts[];

/** The facts of one message. */
export interface MessageFacts {
  readonly role: string;
  /** The message, one of its blocks, or a block inside a tool_result's content carries cache_control. */
  readonly cacheControl: boolean;
  /** It holds a `thinking` or `redacted_thinking` block. */
  readonly thinking: boolean;
  /** The ids of its tool_use blocks, in order. */
  readonly toolUseIds: readonly string[];
  /** The tool_use_ids of its tool_result blocks, in order. */
  readonly toolResultIds: readonly string[];
  /**
   * One of its tool_results holds a `tool_reference` block: a tool search's answer, which loads
   * a deferred tool's definition for the rest of the conversation (tool search is on).
   */
  readonly loadsTool: boolean;
  /**
   * The string tokens of its own texts: a string content, or the `text` of each top-level text
   * block. Never tool_result contents, tool inputs or thinking.
   */
  readonly texts: readonly Span[];
  /**
   * A user message with a prompt the person wrote: a text that is not the client's own
   * (`<system-reminder>`, `<task-notification>`), whether or not tool_results come with it.
   */
  readonly prompt: boolean;
  /** One of its tool_results answers a call that reads ctxshed's stored text back (restore-call.ts). */
  readonly restores: boolean;
  /** The API refuses it without the message right after it (a Responses `reasoning` item). */
  readonly pairsWithNext?: true;
  /**
   * No span may take it or cross it: a span starts after the last one before the recent window
   * (a Responses `compaction` or `additional_tools` item, the last of its leading items).
   */
  readonly barrier?: true;
}
