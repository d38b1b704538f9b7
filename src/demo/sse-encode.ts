/** A complete assistant message as the Messages API streams it (`stream: true`). Pure. */

/** A Messages API content block the demo model produces. */
export type ModelBlock =
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'tool_use'; readonly id: string; readonly name: string; readonly input: Readonly<Record<string, unknown>> };

/** A complete assistant message (the non-streaming reply body). */
export interface ModelMessage {
  readonly id: string;
  readonly type: 'message';
  readonly role: 'assistant';
  readonly model: string;
  readonly content: readonly ModelBlock[];
  readonly stop_reason: 'tool_use' | 'end_turn';
  readonly stop_sequence: null;
  readonly usage: Readonly<Record<string, number>>;
}

/**
 * The SSE text for `message`, in the API's order: message_start (carrying the input-side usage,
 * which is where a proxy reads it), a ping, start/delta/stop per block, message_delta, message_stop.
 */
export function encodeSse(message: ModelMessage): string {
  const frames: string[] = [];
  const push = (type: string, data: Record<string, unknown>): void => {
    frames.push(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
  };
  push('message_start', { message: { ...message, content: [], stop_reason: null, usage: { ...message.usage, output_tokens: 1 } } });
  push('ping', {});
  message.content.forEach((block, index) => {
    if (block.type === 'text') {
      push('content_block_start', { index, content_block: { type: 'text', text: '' } });
      push('content_block_delta', { index, delta: { type: 'text_delta', text: block.text } });
    } else {
      push('content_block_start', { index, content_block: { ...block, input: {} } });
      push('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input) } });
    }
    push('content_block_stop', { index });
  });
  push('message_delta', { delta: { stop_reason: message.stop_reason, stop_sequence: null }, usage: { output_tokens: message.usage['output_tokens'] ?? 0 } });
  push('message_stop', {});
  return frames.join('');
}
