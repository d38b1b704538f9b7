/**
 * Every request over the threshold either latches or says why not: a scripted session through the
 * real proxy, in both modes, and a closed hold reason (docs/reasons.md, "Why no epoch latched") on
 * each model call whose conversation's last reading was at or over the threshold and that latched
 * nothing.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { HOLD_REASONS } from '../../src/core/decide/hold-reasons.js';
import type { EpochMode } from '../../src/core/epoch-types.js';
import type { SettingsGiven } from '../../src/rescue/index.js';
import { ScriptedClient, type ScriptedClientOptions } from '../../src/scripted/client.js';
import { startTestApi } from '../support/scripted-api.js';
import { startTestProxy, tempStateDir, testConfig, waitForWire } from '../support/test-proxy.js';

const THRESHOLD = 0.7;
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

/** The session's model calls, each with the fullness of the call before it (the reading it was judged on). */
async function session(
  mode: EpochMode,
  turns: number,
  settings: SettingsGiven,
  options: ScriptedClientOptions = {},
): Promise<Array<{ record: Record<string, unknown>; judgedOn: number | undefined }>> {
  const dir = await tempStateDir(`ctxshed-hold-${mode}-`);
  const upstream = await startTestApi();
  const proxy = await startTestProxy(dir, testConfig(upstream.url, { ...settings, mode, threshold: THRESHOLD }));
  cleanups.push(
    () => upstream.close(),
    () => proxy.close(),
  );
  const client = new ScriptedClient(proxy.url, options);
  for (let i = 0; i < turns; i++) expect((await client.turnOnce()).status).toBe(200);
  const wire = (await waitForWire(dir, client.sent.length)).filter((r) => r['route'] === 'messages');
  expect(wire).toHaveLength(turns);
  return wire.map((record, i) => ({ record, judgedOn: i === 0 ? undefined : (wire[i - 1]!['fullness'] as number | undefined) }));
}

// Each crossing of the scripted session latches at once by default: these settings make the
// latch refuse first (no turns left to pay back until the gate's 85% ceiling, or a gain asked for
// that no epoch gives), as a person's flags would.
/** A model that runs the thinking prefix check, its thinking kept in the transcript (docs/rescue.md, "Preserved thinking"). */
const PREFIX_CHECK: ScriptedClientOptions = { model: 'claude-opus-5-5', thinking: { type: 'adaptive', display: 'omitted' } };

describe.each([
  ['rescue', { gate: true, horizon: 0 }, ['gate'], {}],
  ['rescue', { minGainFraction: 0.5 }, ['gain_too_small'], {}],
  ['shed', { horizon: 0 }, ['gate'], {}],
  // On a prefix-check model, --latch-at prompt waits for a person's prompt: mid tool loop, mid_turn.
  ['rescue', { latchAt: 'prompt' }, ['mid_turn'], PREFIX_CHECK],
  ['shed', { latchAt: 'prompt' }, ['mid_turn'], PREFIX_CHECK],
  // No shed case for gain_too_small: shed waives the gain floor within it of the window (docs/shed.md
  // "Never past the window"), and this session's spans free more than any floor left under it.
  // test/rescue/latch-holds.test.ts holds the engine's span holds to their figures.
] as const)('the proxy in %s mode (%o, client %o), over its threshold', (mode, settings, expected, options) => {
  it('should name a closed hold reason on every request that latched nothing, and none under the threshold or on a latch', async () => {
    const calls = await session(mode, 40, settings as SettingsGiven, options);

    const over = calls.filter((c) => c.judgedOn !== undefined && c.judgedOn >= THRESHOLD);
    const held = over.filter((c) => c.record['latched'] === undefined);
    const quiet = calls.filter((c) => c.judgedOn === undefined || c.judgedOn < THRESHOLD || c.record['latched'] !== undefined);
    expect(held.length).toBeGreaterThan(0);
    for (const { record } of held) expect(Object.keys(HOLD_REASONS)).toContain(record['hold']);
    expect(new Set(held.map((c) => c.record['hold']))).toEqual(new Set(expected));
    for (const { record } of quiet) expect(record['hold']).toBeUndefined();
  });
});
