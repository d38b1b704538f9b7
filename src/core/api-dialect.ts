/**
 * Which API a request body speaks. The plan, stub, rewrite, inflate and self-check are shared:
 * each API only brings its own index, which maps its body onto the one neutral shape
 * (`TranscriptIndex`): its turns or items as messages, its tool outputs as tool_result blocks
 * (`toolResults`, with the span of the value a stub replaces), its tool calls as tool_use blocks.
 */
import { indexTranscript, type IndexOutcome } from './transcript-index.js';

/** The APIs ctxshed can index. */
export type ApiName = 'messages' | 'responses' | 'chat';

/** One API's way of reading a request body. */
export interface ApiDialect {
  readonly name: ApiName;
  /** Indexes a request body of this API into the neutral shape. Never throws. */
  readonly index: (body: Uint8Array) => IndexOutcome;
}

/** The Anthropic Messages API (`POST /v1/messages`): the default everywhere. */
export const MESSAGES_API: ApiDialect = { name: 'messages', index: indexTranscript };
