/**
 * Rebuilds an assistant message from its SSE stream, the way a client SDK accumulates one: the
 * scripted client reads its replies with it, and tests check the encoder against it. Pure.
 */
import { createSseParser } from '../core/sse-parser.js';
import { isRecord } from '../errors.js';

/** A content block as the client keeps it in its transcript. */
export type Block = Record<string, unknown>;

/** What the stream said: the message's fields, its blocks, its stop reason and merged usage. */
export interface StreamedMessage {
  /** `message_start`'s message with the later fields applied (`content` rebuilt, usage merged). */
  readonly message: Record<string, unknown>;
  readonly content: Block[];
  readonly stopReason: string | undefined;
}

/** The message in `text` (a whole `text/event-stream` body); throws on an `error` event. */
export function decodeSse(text: string): StreamedMessage {
  let message: Record<string, unknown> = {};
  const content: Block[] = [];
  const partialJson: string[] = [];
  // The proxy's own incremental parser, given the whole body at once.
  for (const event of createSseParser().push(text)) {
    const data = JSON.parse(event.data) as Record<string, unknown>;
    const index = typeof data['index'] === 'number' ? data['index'] : -1;
    const delta = isRecord(data['delta']) ? data['delta'] : {};
    switch (data['type']) {
      case 'message_start':
        message = isRecord(data['message']) ? { ...data['message'] } : {};
        break;
      case 'content_block_start':
        content[index] = { ...(data['content_block'] as Block) };
        partialJson[index] = '';
        break;
      case 'content_block_delta':
        applyDelta(content[index]!, delta, (json) => (partialJson[index] += json));
        break;
      case 'content_block_stop':
        // tool_use input arrives as JSON text in pieces; it is only whole at the block's end.
        if (content[index]!['type'] === 'tool_use') content[index]!['input'] = JSON.parse(partialJson[index] || '{}') as unknown;
        break;
      case 'message_delta':
        // The counts in message_delta are cumulative: later values replace earlier ones.
        message = {
          ...message,
          ...delta,
          usage: { ...(isRecord(message['usage']) ? message['usage'] : {}), ...(isRecord(data['usage']) ? data['usage'] : {}) },
        };
        break;
      case 'error':
        throw new Error(`the stream carried an error: ${JSON.stringify(data['error'])}`);
    }
  }
  const stopReason = message['stop_reason'];
  return { message: { ...message, content }, content, stopReason: typeof stopReason === 'string' ? stopReason : undefined };
}

function applyDelta(block: Block, delta: Record<string, unknown>, addJson: (json: string) => void): void {
  switch (delta['type']) {
    case 'text_delta':
      block['text'] = `${String(block['text'])}${String(delta['text'])}`;
      break;
    case 'thinking_delta':
      block['thinking'] = `${String(block['thinking'])}${String(delta['thinking'])}`;
      break;
    case 'signature_delta':
      block['signature'] = delta['signature'];
      break;
    case 'input_json_delta':
      addJson(String(delta['partial_json']));
      break;
  }
}
