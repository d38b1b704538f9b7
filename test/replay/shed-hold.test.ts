import fs from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import type { FullnessReading } from '../../src/core/index.js';
import type { ApiMessage } from '../../src/replay/rebuild-conversations.js';
import { BodyBuilder } from '../../src/replay/request-body.js';
import { whyNoShed, type ShedHoldInput } from '../../src/replay/shed-hold.js';
import { DEFAULT_ENGINE_SETTINGS, EpochEngine, type EngineSettings } from '../../src/rescue/index.js';
import { openStateDir } from '../../src/state/open-state-dir.js';
import { sha256Hex } from '../../src/state/sha256-hex.js';
import { tempStateDir } from '../support/test-proxy.js';

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

const reading = (over: Partial<FullnessReading> = {}): FullnessReading => ({
  contextTokens: 80_000,
  window: 100_000,
  epochsApplied: 0,
  requestBytes: 320_000,
  ...over,
});
const input = (sizes: readonly number[], over: Partial<ShedHoldInput> = {}): ShedHoldInput => ({
  body: body(sizes),
  spans: [],
  reading: reading(),
  epochs: 0,
  spansDir: '/state/spans',
  sha256: sha256Hex,
  ...over,
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

  it('should let the gate give way from 85% full, as the engine does', () => {
    // Arrange: no turns left, so under the ceiling the gate holds (the test above).
    const full = reading({ contextTokens: 86_000 });

    // Act
    const outcome = whyNoShed(input(big, { horizon: 0, reading: full }));

    // Assert
    expect(outcome).toEqual({ kind: 'would_latch' });
  });

  it('should name a gain under a tenth of the window', () => {
    // Act
    // The 27 KB result and what follows fit the recent window (7,000 tokens at 100,000, about 28 KB).
    const outcome = whyNoShed(input([2000, 27_000]));

    // Assert
    expect(outcome).toMatchObject({ kind: 'held', why: 'gain_too_small' });
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

describe('whyNoShed against the engine', () => {
  it.each([
    ['gate', big, { horizon: 0 }],
    // Policy version 3: a gain floor is waived within it of the window (80% + 15% stays under it).
    ['gain_too_small', [2_000, 2_000, 2_000, 25_000, ...Array<number>(4).fill(500)], { minGainFraction: 0.2 }],
    ['too_few_messages', [500, 500, 500], {}],
  ] as const)("should give the engine's own hold reason (%s) for the same request and reading", async (reason, sizes, settings) => {
    // Arrange: a shed engine whose conversation's last reading is 80% of its window.
    const state = await openStateDir(await tempStateDir('ctxshed-shed-hold-'));
    const engine = new EpochEngine(state, { ...DEFAULT_ENGINE_SETTINGS, window: 100_000, mode: 'shed', ...(settings as Partial<EngineSettings>) });
    const request = { method: 'POST', target: '/v1/messages', headers: {}, body: body(sizes) };
    const first = await engine.prepare(request);
    engine.observe(first, { status: 200, usage: { inputTokens: 10, cacheCreationInputTokens: 0, cacheReadInputTokens: 79_990, outputTokens: 5 } });

    // Act
    const prepared = await engine.prepare(request);
    const entry = prepared.conversation!;
    const explained = whyNoShed({
      body: request.body,
      spans: entry.spans,
      reading: entry.reading!,
      epochs: entry.record?.epochs.length ?? 0,
      spansDir: state.spansDir,
      sha256: sha256Hex,
      ...('horizon' in settings ? { horizon: settings.horizon } : {}),
      ...('minGainFraction' in settings ? { minGainFraction: settings.minGainFraction } : {}),
    });
    await fs.rm(state.root, { recursive: true, force: true });

    // Assert
    expect(prepared.hold?.reason).toBe(reason);
    expect(explained).toMatchObject({ kind: 'held', why: reason });
  });
});
