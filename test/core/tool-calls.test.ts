import { describe, expect, it } from 'vitest';
import { indexTranscript, readNewestToolCalls, type TranscriptIndex } from '../../src/core/index.js';

function indexed(body: Uint8Array): TranscriptIndex {
  const outcome = indexTranscript(body);
  if (outcome.kind !== 'indexed') throw new Error(outcome.detail);
  return outcome.index;
}

const use = (id: string, name: string, input: unknown): object => ({ type: 'tool_use', id, name, input });
const result = (id: string): object => ({ type: 'tool_result', tool_use_id: id, content: 'ok' });

describe('readNewestToolCalls', () => {
  it('should give the calls of the newest assistant message only, in order', () => {
    const body = new TextEncoder().encode(
      JSON.stringify({
        model: 'm',
        messages: [
          { role: 'user', content: 'go' },
          { role: 'assistant', content: [use('toolu_old', 'Read', { file_path: '/a' })] },
          { role: 'user', content: [result('toolu_old')] },
          { role: 'assistant', content: [{ type: 'text', text: 'two at once' }, use('toolu_1', 'Read', { file_path: '/b' }), use('toolu_2', 'Bash', { command: 'ls' })] },
          { role: 'user', content: [result('toolu_1'), result('toolu_2')] },
        ],
      }),
    );

    const calls = readNewestToolCalls(body, indexed(body));

    expect(calls).toEqual([
      { id: 'toolu_1', name: 'Read', input: { file_path: '/b' } },
      { id: 'toolu_2', name: 'Bash', input: { command: 'ls' } },
    ]);
  });

  it('should give an empty input for a call whose input is not an object, and nothing without an assistant message', () => {
    const body = new TextEncoder().encode(JSON.stringify({ messages: [{ role: 'user', content: 'go' }, { role: 'assistant', content: [use('toolu_1', 'X', 'odd')] }] }));
    const none = new TextEncoder().encode(JSON.stringify({ messages: [{ role: 'user', content: 'go' }] }));

    expect(readNewestToolCalls(body, indexed(body))).toEqual([{ id: 'toolu_1', name: 'X', input: {} }]);
    expect(readNewestToolCalls(none, indexed(none))).toEqual([]);
  });
});
