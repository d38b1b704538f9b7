import { describe, expect, it } from 'vitest';
import { readNewestToolCalls, readToolCalls, stringField } from '../../src/core/read-tool-calls.js';
import { mustIndex, utf8 } from './bodies.js';
import { sessionBody } from './labels/session-body.js';

describe('readToolCalls', () => {
  it('should read each tool_use name and the plain fields of its input', () => {
    // Arrange
    const body = sessionBody([
      { name: 'Read', input: { file_path: '/src/a.ts', offset: 10, limit: 20 }, result: 'x' },
      { name: 'Bash', input: { command: 'npm test', description: 'Run the tests', timeout: 60000 }, result: 'ok' },
    ]);

    // Act
    const calls = readToolCalls(body, mustIndex(body));

    // Assert
    expect(calls.get('toolu_0')).toEqual({
      id: 'toolu_0',
      name: 'Read',
      strings: [['file_path', '/src/a.ts']],
      numbers: new Map([
        ['offset', 10],
        ['limit', 20],
      ]),
    });
    expect(calls.get('toolu_1')?.strings).toEqual([
      ['command', 'npm test'],
      ['description', 'Run the tests'],
    ]);
    expect(calls.get('toolu_1')?.numbers).toEqual(new Map([['timeout', 60000]]));
  });

  it('should decode escapes in names and values', () => {
    // Arrange
    const text =
      '{"model":"m","messages":[{"role":"assistant","content":[{"type":"tool_use","id":"t1","n\\u0061me":"Bash","input":{"command":"echo \\"h\\u00e9\\"\\nls"}}]},{"role":"user","content":"ok"}]}';
    const body = utf8(text);

    // Act
    const call = readToolCalls(body, mustIndex(body)).get('t1');

    // Assert
    expect(call?.name).toBe('Bash');
    expect(call?.strings).toEqual([['command', 'echo "hé"\nls']]);
  });

  it("should leave out bulky fields (a Write's content, an Edit's strings) and nested values", () => {
    // Arrange
    const body = sessionBody([
      { name: 'Write', input: { file_path: '/a', content: 'x'.repeat(5000) }, result: 'ok' },
      { name: 'Edit', input: { file_path: '/b', old_string: 'a', new_string: 'b', replace_all: false }, result: 'ok' },
      { name: 'mcp__x__y', input: { options: { deep: 'no' }, list: ['no'], query: 'yes' }, result: 'ok' },
    ]);

    // Act
    const calls = readToolCalls(body, mustIndex(body));

    // Assert
    expect(calls.get('toolu_0')?.strings).toEqual([['file_path', '/a']]);
    expect(calls.get('toolu_1')?.strings).toEqual([['file_path', '/b']]);
    expect(calls.get('toolu_2')?.strings).toEqual([['query', 'yes']]);
  });

  it.each([
    ['a name with a space', '"name":"my tool"'],
    ['a name that is not a string', '"name":7'],
    ['no name', '"nome":"Bash"'],
  ])('should record the tool as unknown for %s', (_case, nameMember) => {
    // Arrange
    const body = utf8(`{"messages":[{"role":"assistant","content":[{"type":"tool_use","id":"t1",${nameMember},"input":{}}]},{"role":"user","content":"ok"}]}`);

    // Act
    const call = readToolCalls(body, mustIndex(body)).get('t1');

    // Assert
    expect(call?.name).toBe('unknown');
  });

  it('should keep the first of two tool_use blocks with one id, and skip blocks that are not tool_use', () => {
    // Arrange
    const body = utf8(
      '{"messages":[{"role":"assistant","content":[{"type":"text","text":"hi","id":"t1"},' +
        '{"type":"tool_use","id":"t1","name":"First","input":{}},{"type":"tool_use","id":"t1","name":"Second","input":{}}]},{"role":"user","content":"ok"}]}',
    );

    // Act
    const calls = readToolCalls(body, mustIndex(body));

    // Assert
    expect([...calls.values()].map((c) => c.name)).toEqual(['First']);
  });

  it('should skip a string field longer than 64 KiB', () => {
    // Arrange
    const body = sessionBody([{ name: 'Bash', input: { command: 'y'.repeat(70 * 1024), description: 'long' }, result: 'ok' }]);

    // Act
    const call = readToolCalls(body, mustIndex(body)).get('toolu_0');

    // Assert
    expect(call?.strings).toEqual([['description', 'long']]);
  });
});

const use = (id: string, name: string, input: unknown): object => ({ type: 'tool_use', id, name, input });
const resultOf = (id: string): object => ({ type: 'tool_result', tool_use_id: id, content: 'ok' });

describe('readNewestToolCalls', () => {
  it('should give the calls of the newest assistant message only, in order', () => {
    const body = new TextEncoder().encode(
      JSON.stringify({
        model: 'm',
        messages: [
          { role: 'user', content: 'go' },
          { role: 'assistant', content: [use('toolu_old', 'Read', { file_path: '/a' })] },
          { role: 'user', content: [resultOf('toolu_old')] },
          {
            role: 'assistant',
            content: [{ type: 'text', text: 'two at once' }, use('toolu_1', 'Read', { file_path: '/b' }), use('toolu_2', 'Bash', { command: 'ls' })],
          },
          { role: 'user', content: [resultOf('toolu_1'), resultOf('toolu_2')] },
        ],
      }),
    );

    const calls = readNewestToolCalls(body, mustIndex(body));

    expect(calls).toEqual([
      { id: 'toolu_1', name: 'Read', strings: [['file_path', '/b']], numbers: new Map() },
      { id: 'toolu_2', name: 'Bash', strings: [['command', 'ls']], numbers: new Map() },
    ]);
  });

  it('should give no fields for a call whose input is not an object, and nothing without an assistant message', () => {
    const body = new TextEncoder().encode(
      JSON.stringify({
        messages: [
          { role: 'user', content: 'go' },
          { role: 'assistant', content: [use('toolu_1', 'X', 'odd')] },
        ],
      }),
    );
    const none = new TextEncoder().encode(JSON.stringify({ messages: [{ role: 'user', content: 'go' }] }));

    expect(readNewestToolCalls(body, mustIndex(body))).toEqual([{ id: 'toolu_1', name: 'X', strings: [], numbers: new Map() }]);
    expect(readNewestToolCalls(none, mustIndex(none))).toEqual([]);
  });
});

describe('stringField', () => {
  it('should give the first string field of that name, or nothing', () => {
    const c = {
      id: 't',
      name: 'Bash',
      strings: [
        ['command', 'ls'],
        ['description', 'list'],
      ] as const,
      numbers: new Map<string, number>(),
    };

    expect(stringField(c, 'command')).toBe('ls');
    expect(stringField(c, 'file_path')).toBeUndefined();
  });
});
