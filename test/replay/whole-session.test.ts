import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { priceRecorded } from '../../src/replay/prompt-cache.js';
import { rebuildConversations } from '../../src/replay/rebuild-conversations.js';
import { replaySession, replayWholeSession, type ReplayOptions } from '../../src/replay/replay-session.js';
import { markEstimated, stitchTranscript } from '../../src/replay/stitch-transcript.js';
import { withWholeSession } from '../../src/replay/whole-session-figures.js';
import { assistant, line, user } from './fixtures.js';

let dir: string;
let shedDir: string;
beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'whole-session-'));
  shedDir = await fs.mkdtemp(path.join(os.tmpdir(), 'whole-session-shed-'));
});
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
  await fs.rm(shedDir, { recursive: true, force: true });
});

const options: () => ReplayOptions = () => ({ settings: { threshold: 0.7, keepRecent: 6, minBytes: 1024 }, stateDir: dir, shedStateDir: shedDir });

/** The compaction call's usage: what its own record says the provider billed. */
const COMPACTION_USAGE = { input_tokens: 7, cache_read_input_tokens: 9_000, cache_creation_input_tokens: 1_234, output_tokens: 2_500 };

/** A session that compacted once, with its `acompact-` call written as a sidechain, and a turn after. */
function compactedSession(): string[] {
  const at = (s: number): string => new Date(Date.parse('2026-02-10T22:58:00.000Z') + s * 1000).toISOString();
  return [
    user('first'),
    assistant('msg_1', { type: 'text', text: 'a'.repeat(4000) }, {}, at(1)),
    line({ type: 'user', uuid: 'u-last', timestamp: at(2), message: { role: 'user', content: 'second' } }),
    line({ type: 'user', isSidechain: true, agentId: 'acompact-1', uuid: 'c1', timestamp: at(3), message: { role: 'user', content: 'summarise' } }),
    line({
      type: 'assistant',
      isSidechain: true,
      agentId: 'acompact-1',
      parentUuid: 'c1',
      timestamp: at(4),
      message: { model: 'claude-opus-4-6', id: 'msg_c', role: 'assistant', content: [{ type: 'text', text: 'summary' }], usage: COMPACTION_USAGE },
    }),
    line({
      type: 'system',
      subtype: 'compact_boundary',
      uuid: 'b',
      timestamp: at(5),
      logicalParentUuid: 'u-last',
      compactMetadata: { trigger: 'auto', preTokens: 167_000 },
    }),
    line({ type: 'user', uuid: 's', parentUuid: 'b', timestamp: at(5), isCompactSummary: true, message: { role: 'user', content: 'summary' } }),
    assistant('msg_2', { type: 'text', text: 'b' }, {}, at(6)),
    user('third'),
    assistant('msg_3', { type: 'text', text: 'c' }, {}, at(8)),
  ];
}

describe('the whole session', () => {
  it('should price the compaction call from its own record in the recorded-with-compaction baseline, and leave it out of the stitched replay', async () => {
    // Arrange
    const lines = compactedSession();
    const conversations = rebuildConversations(lines, 'x.jsonl');
    const stitch = stitchTranscript(lines);
    const stitched = markEstimated(rebuildConversations(stitch.lines, 'x.jsonl'), stitch.boundaries);

    // Act
    const report = await replaySession('x.jsonl', conversations, options());
    await fs.rm(dir, { recursive: true, force: true });
    await fs.rm(shedDir, { recursive: true, force: true });
    await fs.mkdir(dir);
    await fs.mkdir(shedDir);
    const whole = await replayWholeSession('x.jsonl', stitched, options(), report.compactionPoint);
    const figures = withWholeSession(report, whole, { compactions: 1, estimated: 2 });

    // Assert
    const billed = priceRecorded('claude-opus-4-6', { input: 7, cacheRead: 9_000, cacheWrite: 1_234, cacheWrite1h: 0, output: 2_500 }) ?? Number.NaN;
    expect(report.recordedWithCompaction?.compactionCalls.requests).toBe(1);
    expect(report.recordedWithCompaction?.compactionCalls.costUsd).toBeCloseTo(billed, 4);
    // The baseline is the strategies' recorded cost up to the compaction, the call, and the turns after it.
    expect(report.recordedWithCompaction?.costUsd ?? 0).toBeGreaterThan(report.strategies.recorded.costUsd + billed - 1e-4);
    // Stitched: the compaction never happens, so no strategy pays for its call; every main request is replayed.
    expect(whole.costBasis.replayedRequests).toBe(3);
    expect(figures.strategies.rescue.wholeSession.vs.recordedWithCompaction).not.toBeNull();
    expect(figures.wholeSession.baselines.recordedWithCompaction.costUsd).toBe(report.recordedWithCompaction?.costUsd);
    // The whole session's working set is the stitched replay's, not the one up to the compaction.
    expect(figures.wholeSession.workingSet).toBe(whole.workingSet);
    // The data ends far below the point: the runway is a floor, never an extrapolation.
    // Against the recorded runway: one request answered before the client compacted.
    expect(report.strategies.recorded.runway.requests).toBe(1);
    expect(figures.strategies.shed.wholeSession.runway).toEqual({ requests: 3, ratio: 3, measured: false });
  });
});
