/**
 * The engine's answer is a value: a closed union on `outcome` (passthrough, held, rewritten), each
 * variant with only its own fields; the conversation it names is a snapshot, and `observe` finds the
 * live entry by key.
 */
import fs from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Usage } from '../../src/core/usage.js';
import { DEFAULT_ENGINE_SETTINGS, engineSettingsOf, EpochEngine, type EngineRequest, type SettingsGiven, type Prepared } from '../../src/rescue/index.js';
import type { LatchNote } from '../../src/rescue/engine-types.js';
import type { StateDir } from '../../src/state/layout.js';
import { openStateDir } from '../../src/state/open-state-dir.js';
import { conversation, filler } from '../core/bodies.js';
import { tempStateDir } from '../support/test-proxy.js';

const BODY = conversation(Array.from({ length: 10 }, (_, i) => filler(4000, i)));
const request = (): EngineRequest => ({ method: 'POST', target: '/v1/messages', headers: {}, body: BODY });
const usage = (contextTokens: number): Usage => ({ inputTokens: 10, cacheCreationInputTokens: 0, cacheReadInputTokens: contextTokens - 10, outputTokens: 5 });

let state: StateDir;
beforeEach(async () => {
  state = await openStateDir(await tempStateDir('ctxshed-prepared-'));
});
afterEach(async () => {
  await fs.rm(state.root, { recursive: true, force: true, maxRetries: 5 });
});

describe('EpochEngine.prepare, its answer as a value', () => {
  it('should name the conversation by a snapshot of values, not the live entry, and still take the reading by key', async () => {
    const engine = new EpochEngine(state, engineSettingsOf({ window: 10_000 }));

    const first = await engine.prepare(request());
    engine.observe(first, { status: 200, usage: usage(9_000) });
    const latching = await engine.prepare(request());

    const live = [...engine.conversations()];
    expect(live).toHaveLength(1);
    expect(Object.keys(first.conversation!).sort()).toEqual(['items', 'reading', 'record']);
    expect(live).not.toContain(first.conversation);
    // The snapshot stays what it was: the latch after it changed the live entry only.
    expect(first.conversation!.reading).toBeUndefined();
    expect(first.conversation!.items.tool_results).toEqual([]);
    expect(latching).toMatchObject({ outcome: 'rewritten', latched: 1 });
    expect(latching.conversation!.items.tool_results.length).toBeGreaterThan(0);
  });
});

/** The engine after one request whose response read 90% of the window; its first answer. */
async function overThreshold(settings: SettingsGiven = {}): Promise<{ engine: EpochEngine; first: Prepared }> {
  const engine = new EpochEngine(state, engineSettingsOf({ window: 10_000, ...settings }));
  const first = await engine.prepare(request());
  engine.observe(first, { status: 200, usage: usage(9_000) });
  return { engine, first };
}

describe('EpochEngine.prepare, one outcome per answer', () => {
  it('should pass a request that is not a model call through with its reason, and nothing a rewrite or a hold has', async () => {
    const engine = new EpochEngine(state, DEFAULT_ENGINE_SETTINGS);
    const body = new TextEncoder().encode('{}');

    const prepared = await engine.prepare({ method: 'GET', target: '/v1/models', headers: {}, body });

    expect(prepared).toMatchObject({ outcome: 'passthrough', reason: 'not_a_model_call', epochs: 0 });
    expect(prepared.body).toBe(body);
    expect(prepared).not.toHaveProperty('rescued');
    expect(prepared).not.toHaveProperty('hold');
    expect(prepared).not.toHaveProperty('bytesElided');
  });

  it('should pass a conversation without epochs under the threshold through with no_epoch', async () => {
    const { first } = await overThreshold();

    expect(first).toMatchObject({ outcome: 'passthrough', reason: 'no_epoch', detail: 'no epoch yet' });
    expect(first.body).toBe(BODY);
    expect(first.key).toMatch(/^[0-9a-f]{64}$/);
  });

  it('should answer held, with the hold and why the bytes went unchanged, when a conversation without epochs latches nothing', async () => {
    const { engine } = await overThreshold({ minGainFraction: 0.99 });

    const held = await engine.prepare(request());

    expect(held).toMatchObject({ outcome: 'held', reason: 'no_epoch', hold: { reason: 'gain_too_small' } });
    expect(held.body).toBe(BODY);
    expect(held).not.toHaveProperty('latched');
    expect(held).not.toHaveProperty('rescued');
  });

  it('should answer rewritten, with its stubs and the epoch it latched, and no reason', async () => {
    const { engine } = await overThreshold();

    const latching = await engine.prepare(request());

    expect(latching).toMatchObject({ outcome: 'rewritten', latched: 1, epochs: 1 });
    if (latching.outcome !== 'rewritten') throw new Error('not rewritten');
    expect(latching.rescued).toBeGreaterThan(0);
    expect(latching.bytesElided).toBeGreaterThan(0);
    expect(latching.body.length).toBeLessThan(BODY.length);
    expect(latching).not.toHaveProperty('reason');
    expect(latching).not.toHaveProperty('hold');
  });

  it('should answer rewritten with the hold when a conversation with an epoch is over the threshold and latches nothing new', async () => {
    const { engine } = await overThreshold();
    const latching = await engine.prepare(request());
    engine.observe(latching, { status: 200, usage: usage(9_000) });

    const again = await engine.prepare(request());

    expect(again).toMatchObject({ outcome: 'rewritten', epochs: 1, hold: { reason: 'nothing_new' } });
    expect(again).not.toHaveProperty('latched');
    expect(again.body.length).toBeLessThan(BODY.length);
  });
});

describe("a rewritten answer's latch note", () => {
  it('should hold one of an epoch latched and a hold, or neither, and the type refuse both (tsc checks the line marked)', () => {
    const hold = { reason: 'gain_too_small' as const, detail: 'not worth the re-write' };
    const notes: LatchNote[] = [{ latched: 2 }, { hold }, {}];
    // @ts-expect-error: both at once is not a LatchNote.
    const both: LatchNote = { latched: 2, hold };

    expect(notes.every((n) => n.latched === undefined || n.hold === undefined)).toBe(true);
    expect(both.latched !== undefined && both.hold !== undefined).toBe(true);
  });
});
