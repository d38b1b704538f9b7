import { describe, expect, it } from 'vitest';
import type { FullnessReading } from '../../src/core/index.js';
import type { ApiMessage } from '../../src/replay/rebuild-conversations.js';
import { BodyBuilder } from '../../src/replay/request-body.js';
import { whyNoShed, type ShedHoldInput } from '../../src/replay/shed-hold.js';
import { sha256Hex } from '../../src/state/sha256-hex.js';

/** A prompt, then one Read per size, each answered with a result of that many bytes. */
function body(sizes: readonly number[]): Uint8Array {
  const messages: ApiMessage[] = [{ role: 'user', content: [{ type: 'text', text: 'read them all' }] }];
  sizes.forEach((size, i) => {
    messages.push({ role: 'assistant', content: [{ type: 'tool_use', id: `toolu_${i}`, name: 'Read', input: { file_path: `/f${i}` } }] });
    messages.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: `toolu_${i}`, content: 'x'.repeat(size) }] });
  });
  messages.push({ role: 'assistant', content: [{ type: 'text', text: 'done' }] });
  return new BodyBuilder().build('claude-opus-4-6', messages);
}

const reading = (over: Partial<FullnessReading> = {}): FullnessReading => ({ contextTokens: 80_000, window: 100_000, epochsApplied: 0, requestBytes: 320_000, ...over });
const input = (sizes: readonly number[], over: Partial<ShedHoldInput> = {}): ShedHoldInput => ({
  body: body(sizes), spans: [], reading: reading(), epochs: 0, spansDir: '/state/spans', sha256: sha256Hex, ...over,
});
const big = [60_000, 60_000, 60_000, 60_000, ...Array<number>(6).fill(500)];

describe('whyNoShed', () => {
  it('should say the engine would latch where a large stale middle pays back at once', () => {
    // Act / Assert
    expect(whyNoShed(input(big))).toEqual({ kind: 'would_latch' });
  });

  it('should name the gate, with its figures, when no turns are left to pay back', () => {
    // Act
    const outcome = whyNoShed(input(big, { horizon: 0 }));

    // Assert
    expect(outcome).toMatchObject({ kind: 'held', why: 'gate', gate: { latch: false, expectedRemainingTurns: 0, horizonFrom: 'horizon' } });
  });

  it('should name a gain under a tenth of the window', () => {
    // Act
    // The 27 KB result and what follows fit the recent window (7,000 tokens at 100,000, about 28 KB).
    const outcome = whyNoShed(input([2000, 27_000]));

    // Assert
    expect(outcome).toMatchObject({ kind: 'held', why: 'small_gain' });
  });

  it('should name the span refusal when the recent window holds everything', () => {
    // Act / Assert
    expect(whyNoShed(input([500, 500, 500]))).toEqual({ kind: 'held', why: 'too_few_messages' });
  });

  it('should wait for a reading taken after the last epoch', () => {
    // Act / Assert
    expect(whyNoShed(input(big, { epochs: 1 }))).toEqual({ kind: 'held', why: 'stale_reading' });
  });
});
