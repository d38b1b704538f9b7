import fs from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { rebuildConversations } from '../../src/replay/rebuild-conversations.js';
import { replaySession, type ReplayOptions } from '../../src/replay/replay-session.js';
import { type ReplayOver, useReplayDirs } from './replay-dirs.js';
import { fixtureLines } from './fixtures.js';

const replay = useReplayDirs('replay-tuning');
/** A small window puts the session over the threshold (as replay-session.test.ts does). */
const options = (over: ReplayOver = {}): ReplayOptions => replay.options({ keepRecent: 2, minBytes: 1024, window: 60_000, ...over });

describe('replaySession with the engine levers varied', () => {
  it('should hand the tuning to the engines: a gain floor of 90% of the window holds the epoch the default latches', async () => {
    // Arrange
    const conversations = rebuildConversations(fixtureLines('subagent.jsonl'), 'subagent.jsonl');

    // Act
    const usual = await replaySession('subagent.jsonl', conversations, options());
    await fs.rm(replay.dir(), { recursive: true, force: true });
    await fs.rm(replay.shedDir(), { recursive: true, force: true });
    await fs.mkdir(replay.dir());
    await fs.mkdir(replay.shedDir());
    const tuned = await replaySession('subagent.jsonl', conversations, options({ minGainFraction: 0.9 }));

    // Assert
    expect(usual.strategies.rescue.epochs).toBe(1);
    expect(tuned.strategies.rescue.epochs).toBe(0);
  });
});
