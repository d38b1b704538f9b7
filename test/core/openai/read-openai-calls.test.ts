import { describe, expect, it } from 'vitest';
import { indexChat } from '../../../src/core/openai/chat-index.js';
import { indexResponses } from '../../../src/core/openai/responses-index.js';
import { readNewestOpenAiCalls, readOpenAiCalls, shellLine } from '../../../src/core/openai/read-openai-calls.js';
import type { TranscriptIndex } from '../../../src/core/transcript-index-types.js';
import { utf8 } from '../bodies.js';
import { chatBody, responsesBody } from './openai-bodies.js';

function indexed(outcome: ReturnType<typeof indexResponses>): TranscriptIndex {
  if (outcome.kind !== 'indexed') throw new Error(outcome.detail);
  return outcome.index;
}

describe('readNewestOpenAiCalls', () => {
  it("should give every Responses call after the last user message, with its arguments' strings or its free input", () => {
    // Arrange: three pairs after the prompt; the third is a custom `exec` call.
    const body = responsesBody(['a', 'b', 'c'], { closing: false });

    // Act
    const calls = readNewestOpenAiCalls(body, indexed(indexResponses(body)));

    // Assert
    expect(calls.map((c) => [c.id, c.name, c.strings])).toEqual([
      ['call_0', 'exec_command', [['cmd', 'cat f0']]],
      ['call_1', 'exec_command', [['cmd', 'cat f1']]],
      ['call_2', 'exec', [['input', 'text(await tools.exec_command({cmd: "cat f2"}))']]],
    ]);
  });

  it('should give nothing once the person has spoken after the calls', () => {
    // Arrange
    const body = chatBody(['a', 'b'], { closing: true });

    // Act
    const calls = readNewestOpenAiCalls(body, indexed(indexChat(body)));

    // Assert
    expect(calls).toEqual([]);
  });

  it("should read a chat assistant's tool_calls by their function", () => {
    // Arrange
    const body = chatBody(['a'], { closing: false });

    // Act
    const calls = readNewestOpenAiCalls(body, indexed(indexChat(body)));

    // Assert
    expect(calls.map((c) => [c.id, c.name, c.strings])).toEqual([['call_0', 'shell', [['cmd', 'cat f0']]]]);
  });

  it('should keep arguments that are not a JSON object whole', () => {
    // Arrange
    const input = [
      { type: 'message', role: 'user', content: 'go' },
      { type: 'function_call', call_id: 'c1', name: 'shell', arguments: 'cat /x/abc.txt' },
      { type: 'function_call', call_id: 'c2', name: 'shell', arguments: '["a"]' },
    ];
    const body = utf8(JSON.stringify({ model: 'm', input }));

    // Act
    const calls = readNewestOpenAiCalls(body, indexed(indexResponses(body)));

    // Assert
    expect(calls.map((c) => c.strings)).toEqual([[['arguments', 'cat /x/abc.txt']], [['arguments', '["a"]']]]);
  });
});

describe('readOpenAiCalls', () => {
  it('should give every call of the body by its id, those before the last prompt too', () => {
    // Arrange: the person spoke after the calls, so none is the current turn's.
    const body = responsesBody(['a', 'b', 'c'], { closing: true });

    // Act
    const calls = readOpenAiCalls(body, indexed(indexResponses(body)));

    // Assert
    expect([...calls.keys()]).toEqual(['call_0', 'call_1', 'call_2']);
    expect(calls.get('call_0')?.strings).toEqual([['cmd', 'cat f0']]);
  });

  it('should read an argv `cmd` as the shell line that runs it', () => {
    const call = { type: 'function_call', call_id: 'call_9', name: 'shell', arguments: JSON.stringify({ command: ['bash', '-lc', "cat 'a b.md'"] }) };
    const body = utf8(JSON.stringify({ model: 'm', input: [{ type: 'message', role: 'user', content: 'go' }, call] }));

    const calls = readOpenAiCalls(body, indexed(indexResponses(body)));

    expect(calls.get('call_9')?.strings).toEqual([['command', `bash -lc 'cat '\\''a b.md'\\'''`]]);
  });
});

describe('shellLine', () => {
  it('should join plain words as they are and quote the others', () => {
    expect(shellLine(['cat', 'notes.md'])).toBe('cat notes.md');
    expect(shellLine(['echo', "it's"])).toBe(`echo 'it'\\''s'`);
    expect(shellLine([])).toBeUndefined();
    expect(shellLine(['cat', 1])).toBeUndefined();
  });
});
