import { describe, expect, it } from 'vitest';
import { indexChat } from '../../../src/core/openai/chat-index.js';
import { indexResponses } from '../../../src/core/openai/responses-index.js';
import { openAiConversationKey, openAiFirstPrompt } from '../../../src/core/openai/conversation-key.js';
import type { OpenAiIndex, OpenAiIndexOutcome } from '../../../src/core/openai/openai-index.js';
import { sha256, utf8 } from '../bodies.js';
import { chatBody, responsesBody } from './openai-bodies.js';

function mustIndex(outcome: OpenAiIndexOutcome): OpenAiIndex {
  if (outcome.kind !== 'indexed') throw new Error(`expected the body to index: ${outcome.reason}`);
  return outcome.index;
}

function responsesKey(body: Uint8Array, session?: string): string | undefined {
  return openAiConversationKey(body, mustIndex(indexResponses(body)), 'responses', sha256, session);
}

function chatKey(body: Uint8Array, session?: string): string | undefined {
  return openAiConversationKey(body, mustIndex(indexChat(body)), 'chat', sha256, session);
}

describe('openAiConversationKey', () => {
  it('should stay the same as the transcript grows', () => {
    // Arrange
    const short = responsesBody(['a'], { promptCacheKey: 'thread-1' });
    const long = responsesBody(['a', 'b', 'c', 'd'], { promptCacheKey: 'thread-1' });

    // Act
    const keys = [responsesKey(short, 's1'), responsesKey(long, 's1')];

    // Assert
    expect(keys[0]).toMatch(/^[0-9a-f]{64}$/);
    expect(keys[1]).toBe(keys[0]);
  });

  it('should tell apart two threads with the same leading items by prompt_cache_key, or by session header', () => {
    // Arrange
    const a = responsesBody(['a'], { promptCacheKey: 'thread-1' });
    const b = responsesBody(['a'], { promptCacheKey: 'thread-2' });

    // Act
    const byCacheKey = [responsesKey(a), responsesKey(b)];
    const bySession = [responsesKey(responsesBody(['a']), 's1'), responsesKey(responsesBody(['a']), 's2')];

    // Assert
    expect(byCacheKey[0]).not.toBe(byCacheKey[1]);
    expect(bySession[0]).not.toBe(bySession[1]);
  });

  it('should tell apart two conversations sharing one prompt_cache_key by their leading items', () => {
    // Arrange: OpenAI suggests one key for many similar requests.
    const a = responsesBody(['a'], { promptCacheKey: 'user-42', prompt: 'Fix the bug.' });
    const b = responsesBody(['a'], { promptCacheKey: 'user-42', prompt: 'Write the docs.' });

    // Act
    const keys = [responsesKey(a), responsesKey(b)];

    // Assert
    expect(keys[0]).not.toBe(keys[1]);
  });

  it('should ignore key order and whitespace in the leading items, and what follows the first user message', () => {
    // Arrange
    const a = utf8('{"input":[{"role":"developer","content":"sys"},{"role":"user","content":"go"},{"role":"assistant","content":"ok"}]}');
    const b = utf8('{ "input" : [ {"content":"sys", "role":"developer"} , {"content":"go","role":"user"}, {"role":"user","content":"more"} ] }');

    // Act
    const keys = [responsesKey(a), responsesKey(b)];

    // Assert
    expect(keys[1]).toBe(keys[0]);
  });

  it('should key a lone string input, and give no key to an empty input', () => {
    // Arrange
    const lone = utf8('{"input":"hello"}');
    const empty = utf8('{"input":[]}');

    // Act
    const keys = [responsesKey(lone), responsesKey(empty)];

    // Assert
    expect(keys[0]).toMatch(/^[0-9a-f]{64}$/);
    expect(keys[1]).toBeUndefined();
  });

  it('should not give a chat body and a Responses body of the same items one key', () => {
    // Arrange
    const text = '{"model":"m","prompt_cache_key":"k","@":[{"role":"user","content":"go"}]}';

    // Act
    const keys = [responsesKey(utf8(text.replace('@', 'input'))), chatKey(utf8(text.replace('@', 'messages')))];

    // Assert
    expect(keys[0]).toBeDefined();
    expect(keys[0]).not.toBe(keys[1]);
  });

  it('should give no key when a leading item is not valid JSON text', () => {
    // Arrange: a raw control byte inside a string passes the structural scan but not JSON.parse.
    const body = utf8('{"input":[{"role":"user","content":"a\u0001b"}]}');

    // Act
    const key = responsesKey(body);

    // Assert
    expect(key).toBeUndefined();
  });

  it('should key chat bodies the same way', () => {
    // Arrange
    const short = chatBody(['a'], { promptCacheKey: 'k' });
    const long = chatBody(['a', 'b'], { promptCacheKey: 'k' });

    // Act
    const keys = [chatKey(short), chatKey(long), chatKey(chatBody(['a'], { promptCacheKey: 'other' }))];

    // Assert
    expect(keys[1]).toBe(keys[0]);
    expect(keys[2]).not.toBe(keys[0]);
  });
});

describe('openAiFirstPrompt', () => {
  it('should skip the client context a user message carries before the prompt', () => {
    // Arrange
    const body = utf8(
      JSON.stringify({
        input: [
          { type: 'message', role: 'user', content: [{ type: 'input_text', text: '<environment_context>\n  <cwd>/p</cwd>\n</environment_context>' }] },
          { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Please   fix\nthe bug.' }] },
        ],
      }),
    );

    // Act
    const prompt = openAiFirstPrompt(body, mustIndex(indexResponses(body)));

    // Assert
    expect(prompt).toBe('Please fix the bug.');
  });

  it('should read string inputs and chat messages, and cut long prompts', () => {
    // Arrange
    const lone = utf8('{"input":"hello there"}');
    const chat = chatBody([], { prompt: 'x'.repeat(300) });

    // Act
    const prompts = [openAiFirstPrompt(lone, mustIndex(indexResponses(lone))), openAiFirstPrompt(chat, mustIndex(indexChat(chat)), 10)];

    // Assert
    expect(prompts).toEqual(['hello there', `${'x'.repeat(9)}…`]);
  });
});
