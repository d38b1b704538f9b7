/** The neutral shape of a transcript index: byte ranges of a body's messages, blocks and tool results. The Messages index (messages/transcript-index.ts) builds it; the OpenAI indexes (openai/) map their bodies onto it. */

/** A half-open byte range [start, end) of the body. */
export interface Span {
  readonly start: number;
  readonly end: number;
}

/** Where a tool_result's content value sits and what it is made of. */
export interface ToolResultContent extends Span {
  /** `absent` when the block has no `content` key; `other` for null, numbers and the like. */
  readonly kind: 'string' | 'array' | 'absent' | 'other';
  /** The string token(s) holding the text: the string itself, or each text block's `text`. */
  readonly texts: readonly Span[];
}

/** One tool_result block. */
export interface ToolResultInfo extends Span {
  /** Position among all tool_result blocks of `messages`, in document order. */
  readonly ordinal: number;
  readonly messageIndex: number;
  readonly blockIndex: number;
  readonly toolUseId: string;
  readonly content: ToolResultContent;
  readonly isError: boolean;
  /** The block, or a block inside its content, carries `cache_control`. */
  readonly hasCacheControl: boolean;
  /** Content is a string, or an array of text blocks with nothing but `type` and `text`. */
  readonly textOnly: boolean;
}

/** One content block of a message. */
export interface BlockInfo extends Span {
  readonly type: string;
  /** The `id` of a tool_use block, the `tool_use_id` of a tool_result block, else empty. */
  readonly id: string;
}

/** One entry of `messages`. */
export interface MessageInfo extends Span {
  readonly role: string;
  readonly content: Span & { readonly kind: 'string' | 'array' };
  readonly blocks: readonly BlockInfo[];
}

/** The index of one request body. */
export interface TranscriptIndex {
  readonly byteLength: number;
  /** The `messages` array value. */
  readonly messagesSpan: Span;
  readonly messages: readonly MessageInfo[];
  readonly toolResults: readonly ToolResultInfo[];
  /** The top-level `model`, when it is a string. */
  readonly model: string | undefined;
}

/** Why a body could not be indexed; a subset of the pass-through reasons. */
export type IndexFailure = 'not_json' | 'not_messages_body' | 'duplicate_key' | 'unknown_shape';

/** The index of a body, or why there is none. Never throws. */
export type IndexOutcome =
  | { readonly kind: 'indexed'; readonly index: TranscriptIndex }
  | { readonly kind: 'failed'; readonly reason: IndexFailure; readonly detail: string };

/** An index, plus what it takes to resume indexing at one of its message boundaries. */
export interface ResumableIndex {
  readonly index: TranscriptIndex;
  /** The top-level `model` as it stood when `messages` began (a first `model` key after it may set it). */
  readonly modelBeforeMessages: string | undefined;
  /** Whether a `model` key, string or not, came before `messages`: a resumed scan then refuses another. */
  readonly modelKeyBeforeMessages: boolean;
}
