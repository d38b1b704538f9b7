/**
 * The epoch engine's latch timing on a model that runs the thinking prefix check (docs/rescue.md,
 * "Preserved thinking"): with `latchAt: 'prompt'`, mid tool loop it holds (`mid_turn`) and
 * latches at the person's next prompt, unless the window is at the gate's 85% ceiling; by
 * default it latches anywhere and records an epoch latched mid-turn.
 */
import fs from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Usage } from '../../src/core/usage.js';
import { latchedOf, latchHoldOf, engineSettingsOf, EpochEngine, type EngineRequest, type SettingsGiven } from '../../src/rescue/index.js';
import type { StateDir } from '../../src/state/layout.js';
import { openStateDir } from '../../src/state/open-state-dir.js';
import { readConversation } from '../../src/state/read-conversation.js';
import { verifyState } from '../../src/state/verify-state.js';
import { utf8 } from '../core/bodies.js';
import { thinkingLoop } from '../core/thinking/thinking-bodies.js';
import { tempStateDir } from '../support/test-proxy.js';

const NOW = new Date('2026-02-03T04:05:06.000Z');
/** `--latch-at prompt`: the default latches anywhere (docs/rescue.md, "Preserved thinking"). */
const RESCUE: SettingsGiven = { window: 10_000, latchAt: 'prompt' };
const SHED: SettingsGiven = { ...RESCUE, mode: 'shed' };
/** Ten turns; the 4 oldest tool results are big. */
const loop = (model?: string): Uint8Array => thinkingLoop(10, model, (t) => (t < 4 ? 8000 : 40));

/** The same loop answered, and the person's next prompt as the newest message. */
function atPrompt(model?: string): Uint8Array {
  const text = new TextDecoder().decode(loop(model));
  const end = text.lastIndexOf(']}');
  return utf8(`${text.slice(0, end)},{"role":"assistant","content":[{"type":"text","text":"done"}]},{"role":"user","content":"now the tests please"}]}`);
}

const messages = (b: Uint8Array): EngineRequest => ({ method: 'POST', target: '/v1/messages', headers: {}, body: b });
const usage = (contextTokens: number): Usage => ({ inputTokens: 10, cacheCreationInputTokens: 0, cacheReadInputTokens: contextTokens - 10, outputTokens: 5 });

let state: StateDir;
beforeEach(async () => {
  state = await openStateDir(await tempStateDir('ctxshed-latch-timing-'));
});
afterEach(async () => {
  // Engines made in a test write previews off the request's path: retry while one lands.
  await fs.rm(state.root, { recursive: true, force: true, maxRetries: 5 });
});

describe.each([
  ['rescue', RESCUE],
  ['shed', SHED],
] as const)('EpochEngine latch timing on claude-opus-5-5, %s mode', (_mode, given) => {
  const settings = engineSettingsOf(given);
  it('should hold mid_turn in the tool loop at 75%, then latch at the next prompt without midTurn', async () => {
    const engine = new EpochEngine(state, settings, { now: () => NOW });
    const first = await engine.prepare(messages(loop()));
    engine.observe(first, { status: 200, usage: usage(7_500) });

    const held = await engine.prepare(messages(loop()));
    expect(latchedOf(held)).toBeUndefined();
    expect(latchHoldOf(held)).toMatchObject({ reason: 'mid_turn' });
    engine.observe(held, { status: 200, usage: usage(7_600) });

    const latched = await engine.prepare(messages(atPrompt()));
    expect(latched).toMatchObject({ latched: 1 });
    const record = await readConversation(state, latched.key!);
    expect(record!.epochs[0]!.midTurn).toBeUndefined();
    expect((await verifyState(state.root)).problems).toEqual([]);
  });

  it('should latch mid-turn at 86% and record that it did', async () => {
    const engine = new EpochEngine(state, settings, { now: () => NOW });
    const first = await engine.prepare(messages(loop()));
    engine.observe(first, { status: 200, usage: usage(8_600) });

    const latched = await engine.prepare(messages(loop()));
    expect(latched).toMatchObject({ latched: 1 });
    const record = await readConversation(state, latched.key!);
    expect(record!.epochs[0]!.midTurn).toBe(true);
    expect((await verifyState(state.root)).problems).toEqual([]);
  });

  it('should latch mid-turn at 75% by default (anywhere), and record it', async () => {
    const { latchAt: _, ...defaults } = given;
    const engine = new EpochEngine(state, engineSettingsOf(defaults), { now: () => NOW });
    const first = await engine.prepare(messages(loop()));
    engine.observe(first, { status: 200, usage: usage(7_500) });

    const latched = await engine.prepare(messages(loop()));
    expect(latched).toMatchObject({ latched: 1 });
    expect((await readConversation(state, latched.key!))!.epochs[0]!.midTurn).toBe(true);
  });

  it('should latch mid tool loop at 75% on a model without the prefix check', async () => {
    const engine = new EpochEngine(state, settings, { now: () => NOW });
    const first = await engine.prepare(messages(loop('claude-sonnet-4-5')));
    engine.observe(first, { status: 200, usage: usage(7_500) });

    const latched = await engine.prepare(messages(loop('claude-sonnet-4-5')));
    expect(latched).toMatchObject({ latched: 1 });
    expect((await readConversation(state, latched.key!))!.epochs[0]!.midTurn).toBeUndefined();
  });
});
