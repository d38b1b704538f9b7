import fs from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Usage } from '../../src/core/usage.js';
import { engineSettingsOf, EpochEngine, type EngineRequest, type EngineSettings, type OriginalChange } from '../../src/rescue/index.js';
import { elidedPath, type StateDir } from '../../src/state/layout.js';
import { openStateDir } from '../../src/state/open-state-dir.js';
import { readConversation } from '../../src/state/read-conversation.js';
import { conversation, filler, fromUtf8 } from '../core/bodies.js';
import { tempStateDir } from '../support/test-proxy.js';
import { CLASSIC } from '../support/classic-settings.js';
import { blocksOf } from '../../src/core/epoch-items.js';

/** A small window, so a reading of a few thousand tokens crosses 70% of it. */
const SETTINGS: EngineSettings = engineSettingsOf({ ...CLASSIC, window: 10_000 });
const LATCH_TIME = new Date('2026-02-03T04:05:06.000Z');

/** Ten tool results of 4,000 bytes: the 4 older than the newest 6 are elided at the latch. */
const BODY = conversation(Array.from({ length: 10 }, (_, i) => filler(4000, i)));

const messages = (body: Uint8Array): EngineRequest => ({ method: 'POST', target: '/v1/messages?beta=true', headers: {}, body });
const usage = (contextTokens: number): Usage => ({ inputTokens: 10, cacheCreationInputTokens: 0, cacheReadInputTokens: contextTokens - 10, outputTokens: 5 });

let state: StateDir;
const engines: EpochEngine[] = [];

/** An engine as a new process would start it on the state directory, telling `changes` what it finds. */
function engineOn(changes: OriginalChange[] = []): EpochEngine {
  const engine = new EpochEngine(state, SETTINGS, { now: () => LATCH_TIME, onOriginalChanged: (c) => changes.push(c) });
  engines.push(engine);
  return engine;
}

/** Latches the first epoch (4 blocks elided) and gives the sha256 of the oldest block's text. */
async function latchFirstEpoch(): Promise<string> {
  const engine = engineOn();
  const first = await engine.prepare(messages(BODY));
  engine.observe(first, { status: 200, usage: usage(9_000) });
  const latched = await engine.prepare(messages(BODY));
  expect(latched).toMatchObject({ latched: 1, rescued: 4 });
  const record = await readConversation(state, latched.key!);
  return blocksOf(record!.epochs[0]!)[0]!.sha256;
}

beforeEach(async () => {
  state = await openStateDir(await tempStateDir('ctxshed-engine-originals-'));
});

afterEach(async () => {
  for (const engine of engines.splice(0)) await engine.settle();
  await fs.rm(state.root, { recursive: true, force: true, maxRetries: 5 });
});

describe('EpochEngine, an original that is not what its name says', () => {
  it('should not name an original with text appended to it, send that block in full, and tell it once', async () => {
    const sha = await latchFirstEpoch();
    await fs.appendFile(elidedPath(state, sha, 'txt'), 'text appended by hand\n');
    const changes: OriginalChange[] = [];
    const resumed = engineOn(changes);

    const prepared = await resumed.prepare(messages(BODY));
    const again = await resumed.prepare(messages(BODY));

    const text = fromUtf8(prepared.body);
    expect(text).not.toContain(sha);
    expect(text).toContain(filler(4000, 0));
    expect(prepared).toMatchObject({ outcome: 'rewritten', epochs: 1, rescued: 3 });
    expect(Buffer.from(again.body).equals(Buffer.from(prepared.body))).toBe(true);
    expect(changes).toEqual([{ problem: 'original_size', detail: expect.stringContaining(`elided/${sha}.txt holds`) }]);
  });

  it('should not name an original changed in place at its size, and name it again once it is put back', async () => {
    const sha = await latchFirstEpoch();
    const file = elidedPath(state, sha, 'txt');
    const original = await fs.readFile(file);
    await fs.writeFile(file, Buffer.from(original).fill('x'.charCodeAt(0), 0, 1));
    const changes: OriginalChange[] = [];
    const resumed = engineOn(changes);

    const changed = await resumed.prepare(messages(BODY));
    await fs.writeFile(file, original);
    const restored = await resumed.prepare(messages(BODY));

    expect(fromUtf8(changed.body)).not.toContain(sha);
    expect(changes.map((c) => c.problem)).toEqual(['original_hash']);
    expect(fromUtf8(restored.body)).toContain(sha);
    expect(restored).toMatchObject({ rescued: 4 });
  });
});
