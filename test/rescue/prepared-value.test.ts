/** The engine's answer is a value: the conversation it names is a snapshot, and `observe` finds the live entry by key. */
import fs from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Usage } from '../../src/core/index.js';
import { DEFAULT_ENGINE_SETTINGS, EpochEngine, type EngineRequest } from '../../src/rescue/index.js';
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
    const engine = new EpochEngine(state, { ...DEFAULT_ENGINE_SETTINGS, window: 10_000 });

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
    expect(latching.latched).toBe(1);
    expect(latching.conversation!.items.tool_results.length).toBeGreaterThan(0);
  });
});
