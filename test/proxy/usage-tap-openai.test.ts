import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { createUsageTap, type UsageTapOptions } from '../../src/proxy/usage-tap.js';
import { CHAT_USAGE, READ_RESPONSES, RESPONSES_USAGE } from '../support/openai-usage-fixtures.js';

function responsesStream(): string {
  const events = [
    { type: 'response.created', response: { id: 'r', status: 'in_progress' } },
    { type: 'response.output_text.delta', delta: 'prompt_tokens usage' },
    { type: 'response.completed', response: { id: 'r', model: 'gpt-x', usage: RESPONSES_USAGE } },
  ];
  return events.map((e) => `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`).join('');
}

function chatStream(): string {
  const chunks = [
    { object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content: 'hi' } }], usage: null },
    { object: 'chat.completion.chunk', choices: [], usage: CHAT_USAGE },
  ];
  return `${chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`).join('')}data: [DONE]\n\n`;
}

async function tap(opts: UsageTapOptions, body: Buffer): Promise<{ usage: unknown; streamError: unknown; error: unknown }> {
  const t = createUsageTap(opts);
  for (const b of body) t.write(Buffer.from([b]));
  const usage = await t.end();
  return { usage, streamError: t.streamError, error: t.error };
}

describe('createUsageTap with an OpenAI api', () => {
  it.each([
    ['identity', (b: Buffer) => b, undefined],
    ['gzip', (b: Buffer) => zlib.gzipSync(b), 'gzip'],
  ])('should read a Responses stream fed byte by byte (%s)', async (_name, encode, encoding) => {
    // Arrange
    const body = encode(Buffer.from(responsesStream()));

    // Act
    const got = await tap({ api: 'responses', contentType: 'text/event-stream; charset=utf-8', contentEncoding: encoding }, body);

    // Assert
    expect(got.usage).toEqual(READ_RESPONSES);
    expect(got.error).toBeUndefined();
  });

  it('should read the usage chunk of a chat stream and a JSON response body', async () => {
    // Arrange
    const stream = Buffer.from(chatStream());
    const json = Buffer.from(JSON.stringify({ object: 'response', model: 'gpt-x', usage: RESPONSES_USAGE }));

    // Act
    const got = [await tap({ api: 'chat', contentType: 'text/event-stream' }, stream), await tap({ api: 'responses', contentType: 'application/json' }, json)];

    // Assert
    expect(got[0]?.usage).toEqual({ inputTokens: 27, cacheCreationInputTokens: 0, cacheReadInputTokens: 98, outputTokens: 48 });
    expect(got[1]?.usage).toEqual(READ_RESPONSES);
  });

  it('should read nothing from a Responses stream read as a Messages one', async () => {
    // Arrange
    const stream = Buffer.from(responsesStream());

    // Act
    const got = await tap({ contentType: 'text/event-stream' }, stream);

    // Assert
    expect(got.usage).toBeUndefined();
  });
});

describe('createUsageTap with an OpenAI api, over its cap', () => {
  it('should stop reading a stream whose event grows over the cap', async () => {
    // Arrange
    const t = createUsageTap({ api: 'chat', contentType: 'text/event-stream', maxSsePendingChars: 10 });

    // Act
    t.write(Buffer.from(`data: ${'x'.repeat(50)}`));
    const usage = await t.end();

    // Assert
    expect(usage).toBeUndefined();
    expect(t.error).toMatch(/over 10 characters/);
  });
});
