/** Rebuilds an assistant message from its SSE stream, the way a client SDK accumulates one. Pure. */
import { createSseParser } from '../proxy/sse-parser.js';
import { isRecord } from '../errors.js';

/** A content block as the client keeps it in its transcript. */
export type Block = Record<string, unknown>;

/** The parts of a streamed reply the demo client needs. */
export interface StreamedMessage {
  readonly content: Block[];
  readonly stopReason: string | undefined;
}

/** The message in `text` (a whole `text/event-stream` body); throws on an `error` event. */
export function decodeSse(text: string): StreamedMessage {
  const content: Block[] = [];
  const partialJson: string[] = [];
  let stopReason: string | undefined;
  // The proxy's own incremental parser, given the whole body at once.
  for (const event of createSseParser().push(text)) {
    const data = JSON.parse(event.data) as Record<string, unknown>;
    const index = typeof data['index'] === 'number' ? data['index'] : -1;
    const delta = isRecord(data['delta']) ? data['delta'] : {};
    switch (data['type']) {
      case 'content_block_start':
        content[index] = { ...(data['content_block'] as Block) };
        partialJson[index] = '';
        break;
      case 'content_block_delta':
        if (delta['type'] === 'text_delta') content[index]!['text'] = `${String(content[index]!['text'])}${String(delta['text'])}`;
        if (delta['type'] === 'input_json_delta') partialJson[index] += String(delta['partial_json']);
        break;
      case 'content_block_stop':
        // tool_use input arrives as JSON text in pieces; it is only whole at the block's end.
        if (content[index]!['type'] === 'tool_use') content[index]!['input'] = JSON.parse(partialJson[index] || '{}') as unknown;
        break;
      case 'message_delta':
        if (typeof delta['stop_reason'] === 'string') stopReason = delta['stop_reason'];
        break;
      case 'error':
        throw new Error(`the stream carried an error: ${JSON.stringify(data['error'])}`);
    }
  }
  return { content, stopReason };
}

