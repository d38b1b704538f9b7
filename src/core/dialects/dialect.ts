/**
 * One API dialect as one record (docs/adding-a-dialect.md): everything ctxshed does differently for
 * one API, as data and pure functions. The plan, stub, rewrite, inflate and self-check are shared:
 * each dialect brings its index, which maps its body onto the one neutral shape (`TranscriptIndex`):
 * its turns or items as messages, its tool outputs as tool_result blocks (`toolResults`, with the
 * span of the value a stub replaces), its tool calls as tool_use blocks. Nothing outside
 * `core/dialects/` asks which API a request is: it asks the request's dialect (registry.ts).
 */
import type { KeyMemo } from '../key-memo.js';
import type { Refault } from '../detect-refaults.js';
import type { Epoch } from '../epoch-types.js';
import type { PassthroughReason } from '../passthrough-reasons.js';
import type { Sha256 } from '../ports.js';
import type { TooLongRefusal } from '../prompt-too-long.js';
import type { ToolCall } from '../read-tool-calls.js';
import type { RequestClass } from '../request-class.js';
import type { MessageFactsReader } from '../shed/message-facts-type.js';
import type { PartSiteReader } from '../part-sites.js';
import type { SseEvent } from '../sse-parser.js';
import type { ThinkingDropped } from '../thinking/thinking-dropped.js';
import type { IndexOutcome, TranscriptIndex } from '../transcript-index-types.js';
import type { Usage } from '../usage.js';

/** A dialect's name: the built-in three, or one a test registers. */
export type ApiName = 'messages' | 'responses' | 'chat' | (string & {});

/**
 * A request's route: which model call it is. `count_tokens` gets its conversation's rewrite but
 * never latches; a registered dialect brings its own.
 */
export type ModelRoute = 'messages' | 'count_tokens' | 'responses' | 'chat' | (string & {});

/** One route a dialect answers. */
export interface DialectRoute {
  readonly route: ModelRoute;
  /** Whether a `POST` to `pathname` (the path without its query) is this route. */
  readonly matches: (pathname: string) => boolean;
  /** Whether its response gives a fullness reading that may latch an epoch (every model call but count_tokens). */
  readonly readsFullness: boolean;
}

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
  /** ctxshed serves this API's WebSocket transport (`ws://.../responses`, src/proxy/websocket/). */
  readonly websocket: boolean;
  /**
   * The API may refuse a request inside a 200 stream (a Responses `response.failed`), so a request
   * that may be rescued has its stream's head held too (docs/openai.md, "A streamed refusal").
   */
  readonly streamedRefusal: boolean;
}

/** A request's line and headers, and its body, as the window reads them. */
export interface DialectRequest {
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly body: Uint8Array;
  /** The body's `model`, when read already (core/head-model-memo.ts); absent: the window reads it from the body. */
  readonly model?: { readonly value: string | undefined };
}

/** The settings a window reads: `CLAUDE_CODE_AUTO_COMPACT_WINDOW` in tokens, where Claude Code compacts. */
export interface WindowSettings {
  readonly autoCompactWindow?: number | undefined;
}

/** What a conversation key is made of besides the body: the client's headers. */
export interface KeyInput {
  /** `x-claude-code-agent-id`: a subagent's conversations are its own. */
  readonly agentId: string | undefined;
  /** The client's session header (the dialect's `sessionHeader`). */
  readonly sessionId: string | undefined;
  /** The keys made so far, by their first message's bytes (key-memo.ts); absent: every key is made. */
  readonly keys?: KeyMemo | undefined;
}

/** The key, with the body's index when finding it took one; or why the request goes through as it is. */
export type KeyLookup =
  | { readonly kind: 'found'; readonly key: string; readonly index?: TranscriptIndex }
  | { readonly kind: 'none'; readonly reason: PassthroughReason; readonly detail: string };

/** An error the API sent mid-stream (e.g. `overloaded_error`). */
export interface StreamError {
  readonly type: string;
  readonly message: string;
}

/** What a response's copy said: its usage (in the Messages shape), an error it carried, the thinking it dropped. */
export interface UsageNote {
  readonly usage?: Usage;
  readonly streamError?: StreamError;
  readonly thinkingDropped?: ThinkingDropped;
}

/** A reader of one SSE response's events, in order. Pure; the proxy parses the bytes and hands events in. */
export interface UsageEvents {
  /** Takes one event; returns why the rest of the stream cannot be read, when it cannot. */
  take(event: SseEvent): string | undefined;
  /** What the events so far said (the last usage seen wins). */
  read(): UsageNote;
}

/** How an API writes its usage: a whole JSON body (parsed), or a stream's events. */
export interface DialectUsage {
  readonly json: (body: unknown) => UsageNote;
  readonly events: () => UsageEvents;
}

/** A failure ctxshed answers itself, in every API's words: its type as each names it, and a stable code. */
export interface ShapedError {
  readonly anthropicType: string;
  readonly openAiType: string;
  readonly code: string;
  readonly message: string;
}

/** One API's way of reading a request, what it supports, and how its answers are written. */
export interface ApiDialect {
  readonly name: ApiName;
  /** The routes that speak it (POST only). */
  readonly routes: readonly DialectRoute[];
  /**
   * Whether an error ctxshed answers on `pathname` (any method, a model call or not) is written in
   * this dialect's shape: the OpenAI routes' sub-paths (`/responses/{id}`) too. The Messages
   * dialect is the default where none claims the path.
   */
  readonly ownsPath: (pathname: string) => boolean;
  /** Indexes a request body of this API into the neutral shape. Never throws. */
  readonly index: (body: Uint8Array) => IndexOutcome;
  readonly supports: DialectCapabilities;
  /** The client's session header (lower case), part of the conversation key. */
  readonly sessionHeader: string;
  /** The conversation a request belongs to (docs/design.md "Key"). Never throws. */
  readonly key: (body: Uint8Array, input: KeyInput, sha256: Sha256) => KeyLookup;
  /** The window a request is measured against when no `--window` decides (docs/rescue.md "Fullness"). Never throws. */
  readonly window: (request: DialectRequest, settings: WindowSettings) => number;
  /** The request's class from its body, when the client names none (a Responses compaction trigger). */
  readonly requestClass: (index: TranscriptIndex | undefined) => RequestClass | undefined;
  readonly usage: DialectUsage;
  /** The body of an error ctxshed answers itself (a refused body, an upstream failure), as UTF-8 JSON text. */
  readonly errorBody: (error: ShapedError) => string;
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
  /** How many model calls the transcript records (core/dialects/model-calls.ts): the burst gate's turns so far. */
  readonly modelCalls: (index: TranscriptIndex) => number;
  /** The person's first prompt, shortened, for the epoch record. */
  readonly firstPrompt: (body: Uint8Array, index: TranscriptIndex) => string;
  /**
   * What shed mode and the working set read of each message (core/shed/message-facts-type.ts):
   * its role, its calls and their answers, its texts, whether it is a prompt of the person's, and
   * what no span may take or split. Never throws on a body its `index` accepted.
   */
  readonly messageFacts: MessageFactsReader;
  /**
   * Where the deeper cut may take parts besides tool results (core/part-sites.ts): the strings of
   * its tool calls' inputs and the model's texts. Absent: the API offers none, and its epochs take
   * tool results only.
   */
  readonly partSites?: PartSiteReader;
}
