import { describe, expect, it } from 'vitest';
import { markLastMessage } from '../../src/scripted/breakpoint.js';

const EPHEMERAL = { type: 'ephemeral' };

describe('markLastMessage', () => {
  it('should send a prompt kept as a string as a lone text block with the breakpoint', () => {
    const marked = markLastMessage({ role: 'user', content: 'Run the tests.' });

    expect(marked).toEqual({
      last: { role: 'user', content: [{ type: 'text', text: 'Run the tests.', cache_control: EPHEMERAL }] },
      edit: 'lone-text-to-string',
    });
    expect(JSON.stringify(marked.last)).toBe('{"role":"user","content":[{"type":"text","text":"Run the tests.","cache_control":{"type":"ephemeral"}}]}');
  });

  it('should add the breakpoint as the last member of the last block, and nowhere else', () => {
    const kept = {
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'toolu_1', content: 'a' },
        { type: 'tool_result', tool_use_id: 'toolu_2', content: 'b' },
      ],
    };

    const marked = markLastMessage(kept);

    expect(marked.edit).toBe('drop-cache-control');
    expect(JSON.stringify(marked.last)).toBe(JSON.stringify(kept).replace(/"b"\}\]\}$/, '"b","cache_control":{"type":"ephemeral"}}]}'));
  });

  it('should keep a lone text block kept as a block a block', () => {
    const marked = markLastMessage({ role: 'user', content: [{ type: 'text', text: 'hi' }] });

    expect(marked).toEqual({ last: { role: 'user', content: [{ type: 'text', text: 'hi', cache_control: EPHEMERAL }] }, edit: 'drop-cache-control' });
  });

  it.each([
    ['an assistant message', { role: 'assistant', content: [{ type: 'text', text: 'ok' }] }],
    ['a last block with its own cache_control', { role: 'user', content: [{ type: 'text', text: 'r', cache_control: { type: 'ephemeral', ttl: '1h' } }] }],
    ['an empty content array', { role: 'user', content: [] }],
  ])('should leave %s as it is', (_what, message) => {
    expect(markLastMessage(message)).toEqual({ last: message, edit: 'none' });
  });

  it('should not change the message the client keeps', () => {
    const kept = { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'a' }] };
    const before = JSON.stringify(kept);

    markLastMessage(kept);

    expect(JSON.stringify(kept)).toBe(before);
  });
});
