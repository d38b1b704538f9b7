import { describe, expect, it } from 'vitest';
import { assistantMessage } from '../../src/scripted/message.js';
import { decodeSse } from '../../src/scripted/sse-decode.js';
import { encodeSse } from '../../src/scripted/sse-encode.js';

const MESSAGE = assistantMessage({
  id: 'msg_01',
  model: 'claude-sonnet-4-5-20250929',
  content: [
    { type: 'thinking', thinking: 'The user wants the file.', signature: 'EuSig==' },
    { type: 'text', text: 'Let me read it — café ✓.' },
    { type: 'tool_use', id: 'toolu_01', name: 'Read', input: { file_path: '/tmp/naïve.txt' } },
  ],
  usage: { input_tokens: 3, cache_read_input_tokens: 100, cache_creation_input_tokens: 20, output_tokens: 40 },
});

describe('decodeSse', () => {
  it('should rebuild the content blocks and stop reason encodeSse streamed', () => {
    const decoded = decodeSse(encodeSse(MESSAGE));

    expect(decoded.content).toEqual(MESSAGE.content);
    expect(decoded.stopReason).toBe('tool_use');
  });

  it('should rebuild the whole message, usage merged from message_start and message_delta', () => {
    const decoded = decodeSse(encodeSse(MESSAGE));

    expect(decoded.message).toEqual(MESSAGE);
  });

  it('should read a stream whose ping comes anywhere, and skip events it does not know', () => {
    const frames = encodeSse(MESSAGE).split('\n\n');
    const moved = ['event: ping\ndata: {"type":"ping"}', ...frames.filter((f) => !f.startsWith('event: ping')), ''];
    moved.splice(3, 0, 'event: future_event\ndata: {"type":"future_event"}');

    expect(decodeSse(moved.join('\n\n')).message).toEqual(MESSAGE);
  });

  it('should throw on an error event', () => {
    const stream = 'event: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}\n\n';

    expect(() => decodeSse(stream)).toThrow(/overloaded_error/);
  });
});
