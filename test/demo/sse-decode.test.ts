import { describe, expect, it } from 'vitest';
import { decodeSse } from '../../src/demo/sse-decode.js';
import { encodeSse, type ModelMessage } from '../../src/demo/sse-encode.js';

const MESSAGE: ModelMessage = {
  id: 'msg_01',
  type: 'message',
  role: 'assistant',
  model: 'claude-sonnet-4-5-20250929',
  content: [
    { type: 'text', text: 'Let me read it — café ✓.' },
    { type: 'tool_use', id: 'toolu_01', name: 'Read', input: { file_path: '/tmp/naïve.txt' } },
  ],
  stop_reason: 'tool_use',
  stop_sequence: null,
  usage: { input_tokens: 3, cache_read_input_tokens: 100, cache_creation_input_tokens: 20, output_tokens: 40 },
};

describe('decodeSse', () => {
  it('should rebuild the content blocks and stop reason encodeSse streamed', () => {
    const decoded = decodeSse(encodeSse(MESSAGE));

    expect(decoded).toEqual({ content: MESSAGE.content, stopReason: 'tool_use' });
  });

  it('should throw on an error event', () => {
    const stream = 'event: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}\n\n';

    expect(() => decodeSse(stream)).toThrow(/overloaded_error/);
  });
});

describe('encodeSse', () => {
  it('should put the input-side usage in message_start, where a proxy reads it', () => {
    const first = encodeSse(MESSAGE).split('\n\n')[0]!;

    expect(first.split('\n')[0]).toBe('event: message_start');
    const data = JSON.parse(first.split('\n')[1]!.slice('data: '.length)) as { message: { usage: Record<string, number> } };
    expect(data.message.usage).toMatchObject({ input_tokens: 3, cache_read_input_tokens: 100, cache_creation_input_tokens: 20 });
  });
});
