/**
 * The one SSE encoder of the scripted Messages API: a complete assistant message as the API
 * streams it when a request says `"stream": true`. Pure.
 *
 * Follows the API's "Streaming Messages" page (https://platform.claude.com/docs/en/build-with-claude/streaming,
 * formerly docs.anthropic.com/en/docs/build-with-claude/streaming), checked in this order:
 * - every event has an SSE name and carries the same name as `type` in its JSON data;
 * - the flow is `message_start` (a Message with empty `content`), then for each content block a
 *   `content_block_start`, one or more `content_block_delta` and a `content_block_stop`, each with
 *   the block's `index`, then `message_delta` (stop_reason, usage), then `message_stop`;
 * - a stream may carry any number of `ping` events; the page's raw example sends one, right after
 *   the first `content_block_start`, and so does this encoder (after `message_start` when there is
 *   no block);
 * - `message_start` carries the input side of `usage` (input, cache write and cache read tokens)
 *   with `output_tokens: 1`; that is where a proxy reads the window's fullness;
 * - "the token counts shown in the usage field of the message_delta event are cumulative": the
 *   page's examples show only `output_tokens` there, the live API also repeats the input-side
 *   counts; this encoder sends all four, cumulative;
 * - a `tool_use` block opens with `input: {}` and its input arrives as `input_json_delta` pieces of
 *   JSON text (the API sends an empty first piece); thinking arrives as `thinking_delta` pieces and
 *   one `signature_delta` before the block stops.
 */
import type { AssistantMessage, ReplyBlock } from './message.js';

/** One server-sent event: its name and its JSON data. */
export interface SseEvent {
  readonly event: string;
  readonly data: unknown;
}

/** Deltas are cut this many code points long, so a client sees several per block. */
const DELTA_CODE_POINTS = 64;

/** The wire text of one event. */
export function encodeSseEvent(event: string, data: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** The wire text of a list of events. */
export function encodeSseEvents(events: readonly SseEvent[]): string {
  return events.map((e) => encodeSseEvent(e.event, e.data)).join('');
}

/** The whole stream for `message`, as one text. */
export function encodeSse(message: AssistantMessage): string {
  return encodeSseEvents(messageEvents(message));
}

/** The events the API streams for `message`, in the documented order (see the file's comment). */
export function messageEvents(message: AssistantMessage): SseEvent[] {
  const events: SseEvent[] = [];
  const push = (event: string, data: Readonly<Record<string, unknown>> = {}): void => {
    events.push({ event, data: { type: event, ...data } });
  };
  const { usage } = message;
  push('message_start', { message: { ...message, content: [], stop_reason: null, stop_sequence: null, usage: { ...usage, output_tokens: 1 } } });
  if (message.content.length === 0) push('ping');
  message.content.forEach((block, index) => {
    push('content_block_start', { index, content_block: openingOf(block) });
    if (index === 0) push('ping');
    for (const delta of deltasOf(block)) push('content_block_delta', { index, delta });
    push('content_block_stop', { index });
  });
  push('message_delta', {
    delta: { stop_reason: message.stop_reason, stop_sequence: message.stop_sequence },
    usage: {
      input_tokens: usage.input_tokens,
      cache_creation_input_tokens: usage.cache_creation_input_tokens,
      cache_read_input_tokens: usage.cache_read_input_tokens,
      output_tokens: usage.output_tokens,
    },
  });
  push('message_stop');
  return events;
}

/** The block as `content_block_start` shows it: empty, filled in by the deltas. */
function openingOf(block: ReplyBlock): ReplyBlock {
  switch (block.type) {
    case 'text':
      return { ...block, text: '' };
    case 'tool_use':
      return { ...block, input: {} };
    case 'thinking':
      return { ...block, thinking: '', signature: '' };
  }
}

function deltasOf(block: ReplyBlock): Array<Record<string, string>> {
  switch (block.type) {
    case 'text':
      // "One or more" deltas per block: an empty text still gets one.
      return (block.text === '' ? [''] : piecesOf(block.text)).map((text) => ({ type: 'text_delta', text }));
    case 'tool_use':
      return ['', ...piecesOf(JSON.stringify(block.input))].map((partial_json) => ({ type: 'input_json_delta', partial_json }));
    case 'thinking':
      return [...piecesOf(block.thinking).map((thinking) => ({ type: 'thinking_delta', thinking })), { type: 'signature_delta', signature: block.signature }];
  }
}

/** `text` cut into pieces of at most DELTA_CODE_POINTS code points, never inside a surrogate pair. */
function piecesOf(text: string): string[] {
  const points = Array.from(text);
  const pieces: string[] = [];
  for (let i = 0; i < points.length; i += DELTA_CODE_POINTS) pieces.push(points.slice(i, i + DELTA_CODE_POINTS).join(''));
  return pieces;
}
