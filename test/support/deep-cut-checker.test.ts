import { describe, expect, it } from 'vitest';
import { deepCutViolations } from './deep-cut-checker.js';

const INPUT_STUB = '[ctxshed: tool input moved out of the context; 9 bytes; read /s/x.txt]';
const TEXT_STUB = '[ctxshed: assistant text moved out of the context; 9 bytes; read /s/x.txt]';

function messages(write: unknown, text: string, result = 'file body', prompt = 'go'): string {
  return JSON.stringify({
    model: 'm',
    messages: [
      { role: 'user', content: prompt },
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 't', signature: 's' },
          { type: 'text', text },
          { type: 'tool_use', id: 'a', name: 'Write', input: write },
        ],
      },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'a', content: result }] },
    ],
  });
}

describe('deepCutViolations', () => {
  it('should accept stubs where stubs may stand, and thinking blocks gone', () => {
    // Arrange
    const client = messages({ file_path: '/a', content: 'long text' }, 'I will.');
    const sent = JSON.parse(messages({ file_path: '/a', content: INPUT_STUB }, TEXT_STUB, '[ctxshed: tool result moved out]'));
    sent.messages[1].content.shift();

    // Act / Assert
    expect(deepCutViolations(client, JSON.stringify(sent), 'messages')).toEqual([]);
  });

  it.each([
    ['a key of the input gone', messages({ content: INPUT_STUB }, 'I will.')],
    ['a value of another type', messages({ file_path: 7, content: 'long text' }, 'I will.')],
    ['an input string made something else than a tool input stub', messages({ file_path: '/a', content: TEXT_STUB }, 'I will.')],
    ['an empty assistant text', messages({ file_path: '/a', content: 'long text' }, '')],
    ["the person's prompt stubbed", messages({ file_path: '/a', content: 'long text' }, 'I will.', 'file body', TEXT_STUB)],
  ])('should refuse %s', (_name, sent) => {
    // Arrange
    const client = messages({ file_path: '/a', content: 'long text' }, 'I will.');

    // Act / Assert
    expect(deepCutViolations(client, sent, 'messages')).not.toEqual([]);
  });

  it('should hold OpenAI arguments to the JSON text of an object with the same keys and types', () => {
    // Arrange
    const body = (args: string) => JSON.stringify({ input: [{ type: 'function_call', call_id: 'c', name: 'x', arguments: args }] });
    const client = body('{"cmd":"long","workdir":"/w","n":1}');

    // Act / Assert
    expect(deepCutViolations(client, body(JSON.stringify({ cmd: INPUT_STUB, workdir: '/w', n: 1 })), 'responses')).toEqual([]);
    expect(deepCutViolations(client, body(INPUT_STUB), 'responses')).not.toEqual([]);
    expect(deepCutViolations(client, body(JSON.stringify({ cmd: INPUT_STUB, n: 1 })), 'responses')).not.toEqual([]);
  });
});
