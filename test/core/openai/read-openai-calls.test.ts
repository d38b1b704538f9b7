import { describe, expect, it } from 'vitest';
import { indexChat, indexResponses, readNewestOpenAiCalls, type TranscriptIndex } from '../../../src/core/index.js';
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
