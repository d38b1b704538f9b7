import { describe, expect, it } from 'vitest';
import { asksOneHourCache, indexTranscript } from '../../src/core/index.js';
import { rebuildConversations } from '../../src/replay/rebuild-conversations.js';
import { BodyBuilder, cacheRegion, startsWith } from '../../src/replay/request-body.js';
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
