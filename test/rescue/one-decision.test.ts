/** One latching request is decided once (core/decide/decide-epoch.ts): the kind's steps after it decide nothing again. */
import fs from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { decideEpoch, type DecideEpoch } from '../../src/core/decide/decide-epoch.js';
import type { Usage } from '../../src/core/usage.js';
import { latchedOf, latchHoldOf, engineSettingsOf, EpochEngine, type EngineRequest, type SettingsGiven } from '../../src/rescue/index.js';
import type { StateDir } from '../../src/state/layout.js';
import { openStateDir } from '../../src/state/open-state-dir.js';
import { conversation, filler } from '../core/bodies.js';
import { tempStateDir } from '../support/test-proxy.js';

const GIVEN: SettingsGiven = { window: 10_000 };
/** Ten tool results of 4,000 bytes: the 4 older than the newest 6 are eligible. */
const BODY = conversation(Array.from({ length: 10 }, (_, i) => filler(4000, i)));
const request = (): EngineRequest => ({ method: 'POST', target: '/v1/messages', headers: {}, body: BODY });
const usage = (contextTokens: number): Usage => ({ inputTokens: 10, cacheCreationInputTokens: 0, cacheReadInputTokens: contextTokens - 10, outputTokens: 5 });

let state: StateDir;
beforeEach(async () => {
  state = await openStateDir(await tempStateDir('ctxshed-one-decision-'));
});
afterEach(async () => {
  await fs.rm(state.root, { recursive: true, force: true, maxRetries: 5 });
});

/** The engine with a spy on its decision, and how many decisions the spy saw. */
function countingEngine(settings: SettingsGiven, classify?: () => Promise<undefined>): { engine: EpochEngine; decisions: () => number } {
  let n = 0;
  const decide: DecideEpoch = (input) => {
    n += 1;
    return decideEpoch(input);
  };
  const engine = new EpochEngine(state, engineSettingsOf({ ...GIVEN, ...settings }), { decide, ...(classify === undefined ? {} : { classify }) });
  return { engine, decisions: () => n };
}

describe('EpochEngine.prepare, one decision per request', () => {
  it.each([
    ['rescue', {}],
    ['rescue with --gate and --labels model', { gate: true, labels: 'model' as const }],
    ['shed', { mode: 'shed' as const }],
  ])('should decide once for one latching request in %s', async (_, settings) => {
    // The classifier answers nothing: the local rules' labels stand, and the latch goes on.
    const { engine, decisions } = countingEngine(settings, async () => undefined);
    const first = await engine.prepare(request());
    engine.observe(first, { status: 200, usage: usage(9_000) });
    const before = decisions();

    const latching = await engine.prepare(request());

    expect(latchHoldOf(latching)).toBeUndefined();
    expect(latchedOf(latching)).toBe(1);
    expect(decisions() - before).toBe(1);
  });

  it('should decide once for one request that holds after the decision (the gate)', async () => {
    const { engine, decisions } = countingEngine({ gate: true, horizon: 0 });
    const first = await engine.prepare(request());
    engine.observe(first, { status: 200, usage: usage(7_500) });
    const before = decisions();

    const held = await engine.prepare(request());

    expect(latchHoldOf(held)).toMatchObject({ reason: 'gate' });
    expect(decisions() - before).toBe(1);
  });
});

describe('EpochEngine.prepare, the thresholds asked once', () => {
  it('should decide with the thresholds as configured, the same value and not a copy, on a warm request', async () => {
    const settings = engineSettingsOf(GIVEN);
    const seen: unknown[] = [];
    const decide: DecideEpoch = (input) => {
      seen.push(input.thresholds);
      return decideEpoch(input);
    };
    const engine = new EpochEngine(state, settings, { decide });
    const first = await engine.prepare(request());
    engine.observe(first, { status: 200, usage: usage(9_000) });

    await engine.prepare(request());

    expect(seen).toHaveLength(1);
    expect(seen[0]).toBe(settings.latch.thresholds);
  });
});
