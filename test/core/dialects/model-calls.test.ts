import { describe, expect, it } from 'vitest';
import { CHAT_API } from '../../../src/core/dialects/chat.js';
import { MESSAGES_API } from '../../../src/core/dialects/messages.js';
import { RESPONSES_API } from '../../../src/core/dialects/responses.js';
import type { ApiDialect } from '../../../src/core/dialects/dialect.js';
import type { TranscriptIndex } from '../../../src/core/transcript-index-types.js';
import { utf8 } from '../bodies.js';
import { chatBody, responsesBody } from '../openai/openai-bodies.js';
import { bodyOf, session } from '../shed/shed-bodies.js';

function indexed(api: ApiDialect, body: Uint8Array): TranscriptIndex {
  const outcome = api.index(body);
  if (outcome.kind !== 'indexed') throw new Error(`not indexed: ${outcome.detail}`);
  return outcome.index;
}

describe("each dialect's modelCalls", () => {
  it('should count a Messages body by its assistant messages: one per call, replies included', () => {
    // A prompt, 4 tool turns with a reply and a new prompt after the second: 4 calls and 2 replies.
    const index = indexed(MESSAGES_API, bodyOf(session(4, 2)));

    expect(MESSAGES_API.modelCalls(index)).toBe(6);
  });

  it("should count a Responses body by its runs of the model's items, not by its items", () => {
    // Codex's shape: each call a function_call item (then its output), and a closing message.
    const calls = indexed(RESPONSES_API, responsesBody(['a', 'b', 'c']));
    // One answer of reasoning, a message and two calls is one model call.
    const oneAnswer = utf8(
      JSON.stringify({
        model: 'gpt-test',
        input: [
          { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'go' }] },
          { type: 'reasoning', id: 'rs_1', summary: [] },
          { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Looking.' }] },
          { type: 'function_call', call_id: 'c1', name: 'exec', arguments: '{}' },
          { type: 'function_call', call_id: 'c2', name: 'exec', arguments: '{}' },
          { type: 'function_call_output', call_id: 'c1', output: 'x' },
          { type: 'function_call_output', call_id: 'c2', output: 'y' },
          { type: 'reasoning', id: 'rs_2', summary: [] },
          { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Done.' }] },
        ],
      }),
    );

    expect(RESPONSES_API.modelCalls(calls)).toBe(4);
    expect(RESPONSES_API.modelCalls(indexed(RESPONSES_API, oneAnswer))).toBe(2);
  });

  it('should count a chat body by its assistant messages', () => {
    const index = indexed(CHAT_API, chatBody(['a', 'b', 'c']));

    expect(CHAT_API.modelCalls(index)).toBe(3);
  });
});
