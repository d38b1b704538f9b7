import { describe, expect, it } from 'vitest';
import { assistantMessage, toolUse } from '../../src/scripted/message.js';

describe('assistantMessage', () => {
  it('should infer stop_reason from the content and fill in every usage field', () => {
    const withTool = assistantMessage({
      content: [toolUse('Bash', { command: 'ls' })],
      usage: { input_tokens: 1, cache_creation_input_tokens: 5, output_tokens: 2 },
    });
    const textOnly = assistantMessage({ content: [{ type: 'text', text: 'done' }], usage: { input_tokens: 1, output_tokens: 2 } });

    expect(withTool).toMatchObject({
      type: 'message',
      role: 'assistant',
      stop_reason: 'tool_use',
      stop_sequence: null,
      usage: {
        input_tokens: 1,
        cache_creation_input_tokens: 5,
        cache_read_input_tokens: 0,
        cache_creation: { ephemeral_5m_input_tokens: 5, ephemeral_1h_input_tokens: 0 },
        output_tokens: 2,
        service_tier: 'standard',
      },
    });
    expect(textOnly).toMatchObject({ stop_reason: 'end_turn' });
  });

  it('should keep an explicit stopReason, model and id', () => {
    const m = assistantMessage({ content: [], usage: { input_tokens: 1, output_tokens: 1 }, stopReason: 'max_tokens', model: 'm-1', id: 'msg_x' });

    expect(m).toMatchObject({ stop_reason: 'max_tokens', model: 'm-1', id: 'msg_x' });
  });
});

describe('toolUse', () => {
  it('should give each block a distinct toolu_ id unless one is given', () => {
    const a = toolUse('Read', {});
    const b = toolUse('Read', {});

    expect(a.id).toMatch(/^toolu_01/);
    expect(a.id).not.toBe(b.id);
    expect(toolUse('Read', {}, 'toolu_fixed').id).toBe('toolu_fixed');
  });
});
