/** The engine says why a request over the threshold latched nothing (`Prepared.hold`, core/decide/hold-reasons.ts). */
import fs from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Usage } from '../../src/core/usage.js';
import { latchedOf, latchHoldOf, engineSettingsOf, EpochEngine, type EngineRequest, type SettingsGiven } from '../../src/rescue/index.js';
import type { StateDir } from '../../src/state/layout.js';
import { openStateDir } from '../../src/state/open-state-dir.js';
import { conversation, filler, fromUtf8, utf8 } from '../core/bodies.js';
import { thinkingBlock, thinkingLoop } from '../core/thinking/thinking-bodies.js';
import { tempStateDir } from '../support/test-proxy.js';

/** A small window, so a reading of a few thousand tokens crosses 70% of it. */
const GIVEN: SettingsGiven = { window: 10_000 };
/** Ten tool results of 4,000 bytes: the 4 older than the newest 6 are eligible. */
const BODY = conversation(Array.from({ length: 10 }, (_, i) => filler(4000, i)));
const request = (body: Uint8Array = BODY): EngineRequest => ({ method: 'POST', target: '/v1/messages', headers: {}, body });
const usage = (contextTokens: number): Usage => ({ inputTokens: 10, cacheCreationInputTokens: 0, cacheReadInputTokens: contextTokens - 10, outputTokens: 5 });

let state: StateDir;
let failures: unknown[];
beforeEach(async () => {
  state = await openStateDir(await tempStateDir('ctxshed-holds-'));
  failures = [];
});
afterEach(async () => {
  // Engines made in a test write previews off the request's path: retry while one lands.
  await fs.rm(state.root, { recursive: true, force: true, maxRetries: 5 });
});

function engineWith(settings: SettingsGiven = {}): EpochEngine {
  return new EpochEngine(state, engineSettingsOf({ ...GIVEN, ...settings }), { onStateFailure: (e) => failures.push(e) });
}

/** The engine after one request whose response read 90% of the window. */
async function overThreshold(engine: EpochEngine): Promise<void> {
  const first = await engine.prepare(request());
  engine.observe(first, { status: 200, usage: usage(9_000) });
}

describe('EpochEngine.prepare, holds', () => {
  it('should say nothing of a hold under the threshold, nor when it latches', async () => {
    const engine = engineWith();

    const under = await engine.prepare(request());
    engine.observe(under, { status: 200, usage: usage(9_000) });
    const latching = await engine.prepare(request());

    expect(latchHoldOf(under)).toBeUndefined();
    expect(latching).toMatchObject({ latched: 1 });
    expect(latchHoldOf(latching)).toBeUndefined();
  });

  it('should hold with gain_too_small when the blocks free less than the minimum gain', async () => {
    const engine = engineWith({ minGainFraction: 0.99 });
    await overThreshold(engine);

    const prepared = await engine.prepare(request());

    expect(latchedOf(prepared)).toBeUndefined();
    expect(latchHoldOf(prepared)).toMatchObject({ reason: 'gain_too_small' });
  });

  it('should hold with nothing_new once every eligible block is frozen, and stale_reading on a reading older than the epoch', async () => {
    const engine = engineWith();
    const first = await engine.prepare(request());
    engine.observe(first, { status: 200, usage: usage(9_000) });
    const latching = await engine.prepare(request());
    // A late response of the request sent before the epoch: its reading predates it.
    engine.observe(first, { status: 200, usage: usage(9_000) });
    const stale = await engine.prepare(request());
    engine.observe(latching, { status: 200, usage: usage(9_000) });
    const fresh = await engine.prepare(request());

    expect(latchedOf(latching)).toBe(1);
    expect(latchHoldOf(stale)).toMatchObject({ reason: 'stale_reading' });
    expect(latchHoldOf(fresh)).toMatchObject({ reason: 'nothing_new' });
  });

  it('should hold with state_unavailable when the latch cannot write its files, and report the failure', async () => {
    const engine = engineWith();
    await overThreshold(engine);
    await fs.rm(state.elidedDir, { recursive: true });
    await fs.writeFile(state.elidedDir, 'not a folder');

    const prepared = await engine.prepare(request());

    expect(latchHoldOf(prepared)).toMatchObject({ reason: 'state_unavailable' });
    expect(prepared.stateFailed).toBe(true);
    expect(failures.length).toBeGreaterThan(0);
  });

  it('should hold with concurrent_latch when another request of the conversation latched first', async () => {
    const engine = engineWith();
    await overThreshold(engine);

    const [a, b] = await Promise.all([engine.prepare(request()), engine.prepare(request())]);

    expect([latchedOf(a), latchedOf(b)].filter((n) => n !== undefined)).toEqual([1]);
    expect([latchHoldOf(a)?.reason, latchHoldOf(b)?.reason].filter((r) => r !== undefined)).toEqual(['concurrent_latch']);
  });
});

describe('EpochEngine.prepare, holds of the span kind', () => {
  it("should give the gate's figures and the span's sizes with a gate hold, as replay reads them", async () => {
    // Arrange: shed mode, no turns left to pay a re-write back, a reading of 80% (under the gate's ceiling)
    const body = conversation(Array.from({ length: 10 }, (_, i) => (i < 4 ? filler(8000, i) : `small ${i}`)));
    const engine = engineWith({ mode: 'shed', horizon: 0 });
    const first = await engine.prepare(request(body));
    engine.observe(first, { status: 200, usage: usage(8_000) });

    // Act
    const prepared = await engine.prepare(request(body));

    // Assert
    expect(latchedOf(prepared)).toBeUndefined();
    expect(latchHoldOf(prepared)).toMatchObject({ reason: 'gate', gate: { latch: false, expectedRemainingTurns: 0 } });
    expect(latchHoldOf(prepared)?.spanBytes).toBeGreaterThan(8000);
    expect(latchHoldOf(prepared)?.windowBytes).toBeGreaterThan(0);
  });
});

describe.each(['rescue', 'shed'] as const)('EpochEngine.prepare, a hold on a prefix-check model, %s mode', (mode) => {
  it('should hold with empty_message when removing the thinking after the edit would leave an assistant message empty', async () => {
    // Arrange: a tool loop on claude-opus-5-5 whose last assistant message is a thinking block alone.
    const loop = fromUtf8(thinkingLoop(10, undefined, (t) => (t < 4 ? 8000 : 40)));
    const body = utf8(`${loop.slice(0, -2)},{"role":"assistant","content":[${thinkingBlock(99)}]},{"role":"user","content":"go on"}]}`);
    const engine = engineWith({ mode });
    const first = await engine.prepare(request(body));
    engine.observe(first, { status: 200, usage: usage(9_000) });

    // Act
    const prepared = await engine.prepare(request(body));

    // Assert
    expect(latchedOf(prepared)).toBeUndefined();
    expect(latchHoldOf(prepared)?.reason).toBe('empty_message');
  });
});
