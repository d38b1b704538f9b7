import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { rebuildConversations } from '../../src/replay/rebuild-conversations.js';
import { replaySession, type ReplayOptions } from '../../src/replay/replay-session.js';
import { fixtureLines } from './fixtures.js';

let dir: string;
let shedDir: string;
beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'replay-tuning-'));
  shedDir = await fs.mkdtemp(path.join(os.tmpdir(), 'replay-tuning-shed-'));
});
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
  await fs.rm(shedDir, { recursive: true, force: true });
});

/** A small window puts the session over the threshold (as replay-session.test.ts does). */
const options = (over: Partial<ReplayOptions> = {}): ReplayOptions => ({
  threshold: 0.7,
  policy: { keepRecent: 2, minBytes: 1024 },
  window: 60_000,
  stateDir: dir,
  shedStateDir: shedDir,
  ...over,
});

describe('replaySession with the engine levers varied', () => {
  it('should hand the tuning to the engines: a gain floor of 90% of the window holds the epoch the default latches', async () => {
    // Arrange
    const conversations = rebuildConversations(fixtureLines('subagent.jsonl'), 'subagent.jsonl');

    // Act
    const usual = await replaySession('subagent.jsonl', conversations, options());
    await fs.rm(dir, { recursive: true, force: true });
    await fs.rm(shedDir, { recursive: true, force: true });
    await fs.mkdir(dir);
    await fs.mkdir(shedDir);
    const tuned = await replaySession('subagent.jsonl', conversations, options({ tuning: { minGainFraction: 0.9 } }));

    // Assert
    expect(usual.strategies.rescue.epochs).toBe(1);
    expect(tuned.strategies.rescue.epochs).toBe(0);
  });
});
