import { describe, expect, it } from 'vitest';
import { indexResponses } from '../../../src/core/openai/responses-index.js';
import { readItemFacts } from '../../../src/core/shed/message-facts.js';
import { readOpenAiCalls } from '../../../src/core/openai/read-openai-calls.js';
import { workingSetOf, workingSetOrdinals } from '../../../src/core/epochs/working-set.js';
import { utf8 } from '../bodies.js';

const SHA = 'cd'.repeat(32);

/** A Codex Responses body: the prompt, a read of a project file, then a `cat` of an elided file, and the model's closing text. */
function body(): Uint8Array {
  const input = [
    { type: 'message', id: 'msg_user', role: 'user', content: [{ type: 'input_text', text: 'Check your work.' }] },
    { type: 'function_call', id: 'fc_1', name: 'exec_command', arguments: JSON.stringify({ cmd: 'cat src/a.ts' }), call_id: 'call_1' },
    { type: 'function_call_output', id: 'fco_1', call_id: 'call_1', output: 'x'.repeat(3000) },
    { type: 'function_call', id: 'fc_2', name: 'exec_command', arguments: JSON.stringify({ cmd: `sed -n 1,400p /s/elided/${SHA}.txt` }), call_id: 'call_2' },
    { type: 'function_call_output', id: 'fco_2', call_id: 'call_2', output: 'the elided text, back' },
    { type: 'message', id: 'msg_end', role: 'assistant', content: [{ type: 'output_text', text: 'Done.' }] },
  ];
  return utf8(JSON.stringify({ model: 'gpt-test', stream: true, input, store: false }));
}

describe('a Codex read-back of an elided file', () => {
  it('should join the working set when the calls are read as the OpenAI dialect lists them', () => {
    const b = body();
    const indexed = indexResponses(b);
    if (indexed.kind !== 'indexed') throw new Error(indexed.detail);
    const { index } = indexed;

    const set = workingSetOf(b, index, new Set([SHA]), new Set(), readItemFacts, {}, readOpenAiCalls);

    expect([...set.calls]).toEqual(['call_2']);
    expect([...workingSetOrdinals(index, set)]).toEqual([1]);
  });
});
