import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { rebuildConversations } from '../../src/replay/rebuild-conversations.js';
import { replaySession, type ReplayOptions } from '../../src/replay/replay-session.js';
import { fixtureLines } from './fixtures.js';

let dir: string;
beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'replay-session-'));
});
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

const options = (over: Partial<ReplayOptions> = {}): ReplayOptions => ({ threshold: 0.7, policy: { keepRecent: 6, minBytes: 1024 }, stateDir: dir, ...over });

describe('replaySession', () => {
  it('should match the recorded context within a few percent when nothing is rewritten', async () => {
    // Arrange
    const conversations = rebuildConversations(fixtureLines('subagent.jsonl'), 'subagent.jsonl');

    // Act
    const report = await replaySession('subagent.jsonl', conversations, options());

    // Assert
    expect(report.requests).toBe(12);
    expect(Math.abs(report.calibration.contextError)).toBeLessThan(0.01);
    expect(Math.abs(report.calibration.cacheReadError)).toBeLessThan(0.1);
    expect(report.strategies.recorded.epochs).toBe(0);
    expect(report.strategies.rescue.epochs).toBe(0);
    expect(report.strategies.rescue.costUsd).toBe(report.strategies.recorded.costUsd);
  });

  it('should latch an epoch through the proxy pipeline and count its sheds once', async () => {
    // Arrange: a small window puts the session over the threshold
    const conversations = rebuildConversations(fixtureLines('subagent.jsonl'), 'subagent.jsonl');

    // Act
    const report = await replaySession('subagent.jsonl', conversations, options({ window: 60_000, policy: { keepRecent: 2, minBytes: 1024 } }));

    // Assert: the epoch record is on disk, as the proxy writes it
    const rescue = report.strategies.rescue;
    expect(rescue.epochs).toBe(1);
    expect(rescue.series.epochAt).toHaveLength(1);
    expect(rescue.peakFullness).toBeLessThan(report.strategies.recorded.peakFullness);
    expect(rescue.bytesShed).toBeGreaterThan(0);
    expect(rescue.bytesShed).toBeLessThanOrEqual(report.strategies.perRequest.bytesShed);
    expect(await fs.readdir(path.join(dir, 'conversations'))).toHaveLength(1);
    expect((await fs.readdir(path.join(dir, 'elided'))).length).toBeGreaterThan(0);
    expect(report.stateFailures).toEqual([]);
    expect(report.passthrough).toEqual({});
  });

  it('should make per-request rewriting break the cache more often than rescue', async () => {
    // Arrange
    const conversations = rebuildConversations(fixtureLines('subagent.jsonl'), 'subagent.jsonl');

    // Act
    const report = await replaySession('subagent.jsonl', conversations, options({ window: 60_000, policy: { keepRecent: 2, minBytes: 1024 } }));

    // Assert
    const { perRequest, rescue } = report.strategies;
    expect(perRequest.epochs).toBeGreaterThan(rescue.epochs);
    expect(perRequest.cacheWriteTokens).toBeGreaterThan(rescue.cacheWriteTokens);
  });
});
