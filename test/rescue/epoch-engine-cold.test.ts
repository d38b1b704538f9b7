import fs from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Usage } from '../../src/core/usage.js';
import { engineSettingsOf, EpochEngine, type EngineRequest, type EngineSettings, type SettingsGiven } from '../../src/rescue/index.js';
import type { StateDir } from '../../src/state/layout.js';
import { openStateDir } from '../../src/state/open-state-dir.js';
import { readConversation } from '../../src/state/read-conversation.js';
import { conversation, filler } from '../core/bodies.js';
import { tempStateDir } from '../support/test-proxy.js';
import { CLASSIC } from '../support/classic-settings.js';

/** A small window; the cold threshold at 40%, under the usual 70%. */
const GIVEN: SettingsGiven = { ...CLASSIC, window: 10_000, coldThreshold: 0.4 };
const SETTINGS: EngineSettings = engineSettingsOf(GIVEN);
const START = Date.parse('2026-02-03T04:05:06.000Z');
const MINUTE = 60_000;

/** Ten tool results of 4,000 bytes: the 4 older than the newest 6 are eligible. */
const BODY = conversation(Array.from({ length: 10 }, (_, i) => filler(4000, i)));

function messages(body: Uint8Array): EngineRequest {
  return { method: 'POST', target: '/v1/messages?beta=true', headers: {}, body };
}

function usage(contextTokens: number): Usage {
  return { inputTokens: 10, cacheCreationInputTokens: 0, cacheReadInputTokens: contextTokens - 10, outputTokens: 5 };
}

let state: StateDir;
let nowMs: number;
const engines: EpochEngine[] = [];

/** An engine on the test's clock. */
function engineWith(settings: EngineSettings): EpochEngine {
  const engine = new EpochEngine(state, settings, { now: () => new Date(nowMs) });
  engines.push(engine);
  return engine;
}

/** The first request at START, read at 50% of the window, then the next one `gapMs` later. */
async function secondAfter(engine: EpochEngine, gapMs: number) {
  nowMs = START;
  const first = await engine.prepare(messages(BODY));
  engine.observe(first, { status: 200, usage: usage(5_000) });
  nowMs = START + gapMs;
  return engine.prepare(messages(BODY));
}

beforeEach(async () => {
  state = await openStateDir(await tempStateDir('ctxshed-engine-cold-'));
});

afterEach(async () => {
  for (const e of engines.splice(0)) await e.settle();
  await fs.rm(state.root, { recursive: true, force: true, maxRetries: 5 });
});

describe('EpochEngine.prepare, where the cache is cold anyway', () => {
  it('should latch under the usual threshold on a request after a gap past the cache TTL, and record the cold threshold', async () => {
    const prepared = await secondAfter(engineWith(SETTINGS), 6 * MINUTE);
    const record = await readConversation(state, prepared.key ?? '');

    expect(prepared).toMatchObject({ latched: 1, rescued: 4 });
    expect(record?.epochs[0]?.reason).toEqual({ fullness: 0.5, threshold: 0.4, window: 10_000, contextTokens: 5_000, cold: true });
  });

  it('should not latch there on a request within the TTL', async () => {
    const prepared = await secondAfter(engineWith(SETTINGS), 5 * MINUTE);

    expect(prepared).toMatchObject({ reason: 'no_epoch', epochs: 0 });
  });

  it('should not latch there without a cold threshold, whatever the gap', async () => {
    const { coldThreshold: _, ...usual } = GIVEN;

    const prepared = await secondAfter(engineWith(engineSettingsOf(usual)), 6 * MINUTE);

    expect(prepared).toMatchObject({ reason: 'no_epoch', epochs: 0 });
  });
});
