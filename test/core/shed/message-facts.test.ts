import { describe, expect, it } from 'vitest';
import { isPersonTurn } from '../../../src/core/shed/message-facts.js';
import { bodyOf, calls, factsOf, fromUtf8, prompt, results } from './shed-bodies.js';
// The kinds' registry names the folders whose files are stored texts (core/stored-files.ts); the core's entry loads it.
import '../../../src/core/epochs/kind-info.js';

describe('readMessagesFacts', () => {
  it("should read roles, tool ids, thinking and the spans of each message's own texts", () => {
    const body = bodyOf([
      prompt('fix it'),
      calls(['a', 'b'], true),
      results(['a', 'b']),
      {
        role: 'user',
        content: [
          { type: 'text', text: 'more' },
          { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AAAA' } },
        ],
      },
    ]);

    const facts = factsOf(body);

    expect(facts.map((f) => f.role)).toEqual(['user', 'assistant', 'user', 'user']);
    expect(facts[1]).toMatchObject({ thinking: true, toolUseIds: ['a', 'b'], toolResultIds: [], texts: [] });
    expect(facts[2]).toMatchObject({ thinking: false, toolUseIds: [], toolResultIds: ['a', 'b'], texts: [] });
    expect(facts[0]!.texts.map((t) => fromUtf8(body.subarray(t.start, t.end)))).toEqual(['"fix it"']);
    expect(facts[3]!.texts.map((t) => fromUtf8(body.subarray(t.start, t.end)))).toEqual(['"more"']);
  });

  it("should see cache_control on a message, on a block, and inside a tool result's content", () => {
    const cc = { type: 'ephemeral' };
    const body = bodyOf([
      { role: 'user', content: 'a', cache_control: cc },
      { role: 'assistant', content: [{ type: 'text', text: 'b', cache_control: cc }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'x', content: [{ type: 'text', text: 'c', cache_control: cc }] }] },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'y', name: 'N', input: { cache_control: cc } }] },
      { role: 'user', content: [{ type: 'text', text: 'e' }] },
    ]);

    const facts = factsOf(body);

    // A tool's input is the tool's business: a key there is no breakpoint.
    expect(facts.map((f) => f.cacheControl)).toEqual([true, true, true, false, false]);
  });

  it('should match keys spelled with escapes as the plain key', () => {
    const body = new TextEncoder().encode(
      '{"messages":[{"role":"user","content":[{"type":"text","\\u0074ext":"hi","cache\\u005fcontrol":{"type":"ephemeral"}}]}]}',
    );

    const [facts] = factsOf(body);

    expect(facts!.cacheControl).toBe(true);
    expect(facts!.texts).toHaveLength(1);
  });

  it("should see a tool_reference in a tool result's content as a load, and nothing else as one", () => {
    const ref = (type: string): object => ({ type, tool_name: 'mcp__ctxshed__restore' });
    const body = bodyOf([
      prompt('go'),
      calls(['s1', 's2', 's3']),
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 's1', content: [ref('tool_reference')] }] },
      { role: 'assistant', content: [{ type: 'text', text: '{"type":"tool_reference"}' }] },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 's2', content: '{"type":"tool_reference"}' },
          { type: 'tool_result', tool_use_id: 's3', content: [ref('text')] },
        ],
      },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 's3', content: [{ type: 'text', text: 'x' }, ref('tool_\u0072eference')] }] },
    ]);

    const facts = factsOf(body);

    expect(facts.map((f) => f.loadsTool)).toEqual([false, false, true, false, false, true]);
  });

  it('should count a server tool call as no client tool_use', () => {
    const body = bodyOf([prompt('a'), { role: 'assistant', content: [{ type: 'server_tool_use', id: 'srv', name: 'web_search', input: {} }] }]);

    expect(factsOf(body)[1]!.toolUseIds).toEqual([]);
  });
});

describe('isPersonTurn', () => {
  it('should be a user message with its own text and no tool results', () => {
    const body = bodyOf([
      prompt('a'),
      calls(['t']),
      results(['t']),
      { role: 'user', content: [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AAAA' } }] },
      { role: 'assistant', content: 'text' },
    ]);

    expect(factsOf(body).map(isPersonTurn)).toEqual([true, false, false, false, false]);
  });
});
