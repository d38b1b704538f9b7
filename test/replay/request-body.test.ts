import { describe, expect, it } from 'vitest';
import { asksOneHourCache } from '../../src/core/shed/one-hour-cache.js';
import { indexTranscript } from '../../src/core/messages/transcript-index.js';
import { rebuildConversations } from '../../src/replay/rebuild-conversations.js';
import type { ApiMessage } from '../../src/replay/rebuild-conversations.js';
import { BodyBuilder, cacheRegion, cacheRegionLength, regionOfBody, regionStartsWith, startsWith } from '../../src/replay/request-body.js';
import { markLastMessage } from '../../src/scripted/breakpoint.js';
import { fixtureLines } from './fixtures.js';

const requests = rebuildConversations(fixtureLines('subagent.jsonl'), 'subagent.jsonl')[0]?.requests ?? [];

describe('BodyBuilder', () => {
  it('should build bodies the core indexes, with one breakpoint on the last block', () => {
    // Arrange
    const builder = new BodyBuilder();

    // Act
    const bodies = requests.map((r) => builder.build(r.model, r.messages));

    // Assert
    for (const body of bodies) {
      const indexed = indexTranscript(body);
      expect(indexed.kind).toBe('indexed');
      expect(new TextDecoder().decode(body).split('"cache_control"').length - 1).toBe(1);
    }
  });
});

describe('BodyBuilder bytes', () => {
  /** The body as one JSON.stringify of it writes it, written apart from the builder's byte memo. */
  const reference = (model: string, messages: readonly ApiMessage[]): string => {
    const sent = messages.map((m, i) =>
      i === messages.length - 1 ? markLastMessage({ role: m.role, content: m.content }).last : { role: m.role, content: m.content },
    );
    const system = [{ type: 'text', text: '(system prompt and tools: not in the transcript, sized by calibration)' }];
    return JSON.stringify({ model, messages: sent, system, tools: [], max_tokens: 32000, stream: true });
  };

  it('should give the bytes of JSON.stringify, for every request of a conversation and for messages rebuilt around old blocks', () => {
    // Arrange: one builder across the conversation (its memo warm), and odd blocks and text
    const builder = new BodyBuilder();
    const odd: ApiMessage[] = [
      { role: 'user', content: [{ type: 'text', text: 'é 漢字 \u2028 "q" \\ 🎉' }, 'a bare string', 7, null] },
      { role: 'assistant', content: [] },
      { role: 'user', content: [{}] },
    ];

    // Act / Assert
    for (const r of requests) expect(new TextDecoder().decode(builder.build(r.model, r.messages))).toBe(reference(r.model, r.messages));
    const last = requests.at(-1)!;
    const rebuilt = last.messages.map((m) => ({ role: m.role, content: m.content.map((b) => (typeof b === 'object' && b !== null ? { ...b } : b)) }));
    expect(new TextDecoder().decode(builder.build(last.model, rebuilt))).toBe(reference(last.model, rebuilt));
    for (const r of [last, requests[2]!, last]) expect(new TextDecoder().decode(builder.build(r.model, r.messages))).toBe(reference(r.model, r.messages));
    expect(new TextDecoder().decode(builder.build('m', odd))).toBe(reference('m', odd));
    expect(new TextDecoder().decode(builder.build('m', odd.slice(0, 1)))).toBe(reference('m', odd.slice(0, 1)));
  });
});

describe('BodyBuilder with a one-hour TTL', () => {
  it('should ask for the one-hour cache on the system stand-in, and leave the cache region as it was', () => {
    // Arrange
    const request = requests[3]!;

    // Act
    const fiveMinutes = new BodyBuilder().build(request.model, request.messages);
    const oneHour = new BodyBuilder().build(request.model, request.messages, '1h');

    // Assert: shed's gate reads the ask; the prompt cache model sees the same bytes
    expect(asksOneHourCache(oneHour)).toBe(true);
    expect(asksOneHourCache(fiveMinutes)).toBe(false);
    expect(indexTranscript(oneHour).kind).toBe('indexed');
    expect(Buffer.compare(Buffer.from(cacheRegion(oneHour)), Buffer.from(cacheRegion(fiveMinutes)))).toBe(0);
  });
});

describe('cacheRegion', () => {
  it('should make each request of a conversation start with the previous one', () => {
    // Arrange
    const builder = new BodyBuilder();

    // Act
    const regions = requests.map((r) => cacheRegion(builder.build(r.model, r.messages)));

    // Assert
    for (let i = 1; i < regions.length; i++) expect(startsWith(regions[i]!, regions[i - 1]!)).toBe(true);
  });
});

describe('regionOfBody', () => {
  it('should stand for cacheRegion in two parts: the same length, and the same answer to every prefix test', () => {
    // Arrange: each request's body, and the bodies cut short and with a marker of their own
    const builder = new BodyBuilder();
    const bodies = requests.map((r) => builder.build(r.model, r.messages));
    const enc = (s: string): Uint8Array => new TextEncoder().encode(s);
    bodies.push(
      enc('{"model":"m","messages":[{"role":"user","content":[{"type":"text","text":"a","cache_control":{"type":"ephemeral"}}]}'),
      enc('{"model":"m"}'),
    );

    // Act / Assert
    for (const r of requests) expect(builder.regionLength(r.model, r.messages)).toBe(cacheRegion(builder.build(r.model, r.messages)).length);
    const unmarked: ApiMessage[] = [
      { role: 'user', content: [{ type: 'text', text: 'a' }] },
      { role: 'assistant', content: [{}] },
    ];
    expect(builder.regionLength('m', unmarked)).toBe(cacheRegion(builder.build('m', unmarked)).length);
    expect(builder.regionLength('m', [{ role: 'user', content: [{}] }])).toBe(cacheRegion(builder.build('m', [{ role: 'user', content: [{}] }])).length);
    for (const a of bodies) {
      expect(cacheRegionLength(a)).toBe(cacheRegion(a).length);
      for (const b of bodies) expect(regionStartsWith(regionOfBody(a), regionOfBody(b))).toBe(startsWith(cacheRegion(a), cacheRegion(b)));
    }
  });
});

describe('startsWith', () => {
  it('should compare bytes', () => {
    // Arrange
    const bytes = new Uint8Array([1, 2, 3]);

    // Act / Assert
    expect(startsWith(bytes, new Uint8Array([1, 2]))).toBe(true);
    expect(startsWith(bytes, new Uint8Array([2]))).toBe(false);
    expect(startsWith(bytes, new Uint8Array([1, 2, 3, 4]))).toBe(false);
  });
});
