import { describe, expect, it } from 'vitest';
import { DEFAULT_POLICY } from '../../src/core/plan-elision.js';
import { indexTranscript } from '../../src/core/messages/transcript-index.js';
import { roundTrip } from '../core/round-trip.js';
import { buildClaudeCodeBody, ClaudeCodeConversation } from './claude-code-body.js';
import { seededRandom } from './seeded-random.js';

interface Block {
  type: string;
  [key: string]: unknown;
}
interface Message {
  role: string;
  content: string | Block[];
}
interface Body {
  messages: Message[];
  system: Block[];
  tools: Array<{ name: string }>;
  [key: string]: unknown;
}

const SMALL = buildClaudeCodeBody({ targetBytes: 300_000, seed: 3 });
const PARSED = JSON.parse(SMALL.bytes.toString('utf8')) as Body;

describe('buildClaudeCodeBody', () => {
  it('should give the same bytes for the same seed and other bytes for another seed', () => {
    // Arrange
    const options = { targetBytes: 300_000, seed: 3 };

    // Act
    const again = buildClaudeCodeBody(options);
    const other = buildClaudeCodeBody({ ...options, seed: 4 });

    // Assert
    expect(again.bytes.equals(SMALL.bytes)).toBe(true);
    expect(other.bytes.equals(SMALL.bytes)).toBe(false);
  });

  it("should write the top-level keys in Claude Code's order, as compact canonical JSON", () => {
    // Arrange: SMALL.

    // Act
    const keys = Object.keys(PARSED);

    // Assert
    expect(keys).toEqual(['model', 'messages', 'system', 'tools', 'metadata', 'max_tokens', 'thinking', 'context_management', 'output_config', 'stream']);
    expect(JSON.stringify(PARSED)).toBe(SMALL.bytes.toString('utf8'));
  });

  it.each([300_000, 1_000_000])('should land within 2%% of a %i-byte target, about half of it tool results', (targetBytes) => {
    // Arrange: nothing.

    // Act
    const body = buildClaudeCodeBody({ targetBytes, seed: 11 });

    // Assert
    expect(Math.abs(body.bytes.length - targetBytes) / targetBytes).toBeLessThan(0.02);
    expect(body.toolResultBytes / body.bytes.length).toBeGreaterThan(0.4);
    expect(body.toolResultBytes / body.bytes.length).toBeLessThan(0.6);
  });

  it('should count its tool results and their JSON bytes truly', () => {
    // Arrange
    const results = PARSED.messages.flatMap((m) => (typeof m.content === 'string' ? [] : m.content.filter((b) => b.type === 'tool_result')));

    // Act
    const bytes = results.reduce((n, b) => n + Buffer.byteLength(JSON.stringify(b['content'])), 0);

    // Assert
    expect(results).toHaveLength(SMALL.toolResults);
    expect(bytes).toBe(SMALL.toolResultBytes);
    expect(PARSED.messages).toHaveLength(SMALL.messages);
  });

  it('should send three system blocks, the last two with cache_control, and about 25 tools of about 70 KB', () => {
    // Arrange: SMALL.

    // Act
    const { system, tools } = PARSED;

    // Assert
    expect(system.map((b) => 'cache_control' in b)).toEqual([false, true, true]);
    expect(tools.length).toBeGreaterThanOrEqual(24);
    expect(tools.length).toBeLessThanOrEqual(27);
    expect(Buffer.byteLength(JSON.stringify(tools))).toBeGreaterThan(60_000);
    expect(Buffer.byteLength(JSON.stringify(tools))).toBeLessThan(80_000);
  });

  it('should alternate assistant turns (thinking with signature, text, Read/Bash tool_use) with their tool_results', () => {
    // Arrange
    const turns = PARSED.messages.filter((m) => m.role !== 'system');

    // Act
    const assistants = turns.filter((m) => m.role === 'assistant');

    // Assert
    for (const [i, m] of turns.entries()) expect(m.role).toBe(i % 2 === 0 ? 'user' : 'assistant');
    for (const m of assistants) {
      const blocks = m.content as Block[];
      expect(blocks[0]).toMatchObject({ type: 'thinking', thinking: expect.any(String), signature: expect.any(String) });
      expect(blocks[1]?.type).toBe('text');
      for (const use of blocks.slice(2)) expect(use).toMatchObject({ type: 'tool_use', name: expect.stringMatching(/^(Read|Bash)$/) });
    }
    expect(PARSED.messages.some((m) => m.role === 'system')).toBe(true);
  });

  it('should give tool_results string content of 200 B to 30 KB, with non-ASCII text in some', () => {
    // Arrange
    const results = PARSED.messages.flatMap((m) => (typeof m.content === 'string' ? [] : m.content.filter((b) => b.type === 'tool_result')));

    // Act
    const sizes = results.map((b) => Buffer.byteLength(b['content'] as string));

    // Assert
    expect(results.every((b) => typeof b['content'] === 'string')).toBe(true);
    expect(Math.min(...sizes)).toBeGreaterThanOrEqual(150);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(31_500);
    expect(results.some((b) => /[^\x00-\x7f]/.test(b['content'] as string))).toBe(true);
  });

  it('should put the one message-level cache_control on the last block of the last user message', () => {
    // Arrange
    const text = SMALL.bytes.toString('utf8');

    // Act
    const last = PARSED.messages.at(-1)!;

    // Assert
    expect(last.role).toBe('user');
    expect((last.content as Block[]).at(-1)).toHaveProperty('cache_control', { type: 'ephemeral' });
    expect(text.split('"cache_control"').length - 1).toBe(3);
  });

  it.each([1, 2, 3])('should index and round trip through plan, rewrite and inflate (seed %i)', (seed) => {
    // Arrange
    const body = buildClaudeCodeBody({ targetBytes: 400_000, seed }).bytes;

    // Act
    const { plan } = roundTrip(body, DEFAULT_POLICY);

    // Assert
    expect(indexTranscript(body).kind).toBe('indexed');
    expect(plan.length).toBeGreaterThan(5);
  });
});

describe('ClaudeCodeConversation', () => {
  const conversation = new ClaudeCodeConversation({ targetBytes: 300_000, seed: 9 });
  const bodies = Array.from({ length: 6 }, () => conversation.next());
  const parsed = bodies.map((b) => JSON.parse(b.toString('utf8')) as Body);

  it('should start at about the target size and grow by one turn per request', () => {
    // Arrange: the six requests above.

    // Act
    const counts = parsed.map((p) => p.messages.length);

    // Assert
    expect(Math.abs(bodies[0]!.length - 300_000) / 300_000).toBeLessThan(0.05);
    for (let i = 1; i < bodies.length; i++) {
      expect(bodies[i]!.length).toBeGreaterThan(bodies[i - 1]!.length);
      expect(counts[i]! - counts[i - 1]!).toBeGreaterThanOrEqual(2);
      expect(counts[i]! - counts[i - 1]!).toBeLessThanOrEqual(3);
      expect(parsed[i]!.messages.at(-2 - (counts[i]! - counts[i - 1]! - 2))?.role).toBe('assistant');
    }
  });

  it('should keep every earlier byte but the breakpoint, which moves to the new last user message', () => {
    // Arrange: the six requests above.

    // Act
    const shared = bodies.slice(1).map((b, i) => {
      const before = bodies[i]!;
      let n = 0;
      while (n < before.length && before[n] === b[n]) n++;
      return { n, before };
    });

    // Assert
    for (const [i, { n, before }] of shared.entries()) {
      const next = bodies[i + 1]!;
      // What differs first is the old breakpoint, which the next request drops.
      expect(before.subarray(n, n + 16).toString('utf8')).toBe(',"cache_control"');
      expect(next.toString('utf8').split('"cache_control"').length - 1).toBe(3);
      const last = parsed[i + 1]!.messages.filter((m) => m.role === 'user' && Array.isArray(m.content)).at(-1)!;
      expect((last.content as Block[]).at(-1)).toHaveProperty('cache_control', { type: 'ephemeral' });
    }
  });

  it('should give the same requests for the same seed', () => {
    // Arrange
    const again = new ClaudeCodeConversation({ targetBytes: 300_000, seed: 9 });

    // Act
    const bodiesAgain = Array.from({ length: 3 }, () => again.next());

    // Assert
    for (const [i, b] of bodiesAgain.entries()) expect(b.equals(bodies[i]!)).toBe(true);
  });
});

describe('seededRandom', () => {
  it('should repeat its sequence for a seed and stay in range', () => {
    // Arrange
    const a = seededRandom(42);
    const b = seededRandom(42);

    // Act
    const xs = Array.from({ length: 1000 }, () => a.next());
    const ys = Array.from({ length: 1000 }, () => b.next());
    const ints = Array.from({ length: 1000 }, () => a.int(3, 5));
    const logs = Array.from({ length: 1000 }, () => a.logInt(200, 30_000));

    // Assert
    expect(xs).toEqual(ys);
    expect(xs.every((x) => x >= 0 && x < 1)).toBe(true);
    expect(new Set(ints)).toEqual(new Set([3, 4, 5]));
    expect(Math.min(...logs)).toBeGreaterThanOrEqual(200);
    expect(Math.max(...logs)).toBeLessThanOrEqual(30_000);
  });
});
