import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { rebuildConversations, type RebuiltConversation } from '../../src/replay/rebuild-conversations.js';
import { renderTable } from '../../src/replay/render-table.js';
import { COST_BASIS, replaySession, type ReplayOptions } from '../../src/replay/replay-session.js';
import { replayOptionsOf, type ReplayOver } from './replay-dirs.js';
import { BodyBuilder, cacheRegion } from '../../src/replay/request-body.js';
import { assistant, line, user } from './fixtures.js';

let dir: string;
let shedDir: string;
beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'window-refusal-'));
  shedDir = await fs.mkdtemp(path.join(os.tmpdir(), 'window-refusal-shed-'));
});
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
  await fs.rm(shedDir, { recursive: true, force: true });
});

/** A threshold no request reaches: any epoch is the overflow's own. */
const options = (over: ReplayOver = {}): ReplayOptions =>
  replayOptionsOf({ threshold: 0.99, keepRecent: 1, minBytes: 1024, stateDir: dir, shedStateDir: shedDir }, over);

const PREFIX_TOKENS = 1000;
const TOKENS_PER_BYTE = 0.25;

/** Every request billed as read from the cache, `PREFIX_TOKENS` + a quarter token per byte of its messages. */
function billedByBytes(conversations: RebuiltConversation[]): RebuiltConversation[] {
  for (const c of conversations) {
    c.requests.forEach((r, i) => {
      const bytes = cacheRegion(new BodyBuilder().build(r.model, r.messages)).length;
      c.requests[i] = { ...r, usage: { input: 0, cacheRead: Math.round(PREFIX_TOKENS + TOKENS_PER_BYTE * bytes), cacheWrite: 0, cacheWrite1h: 0, output: 10 } };
    });
  }
  return conversations;
}

/** Three reads of 20,000 characters: about 6,000, 11,000 and 16,000 tokens as they arrive. */
function threeReads(): string[] {
  const read = (n: number): string[] => [
    assistant(`msg_${n}`, { type: 'tool_use', id: `toolu_${n}`, name: 'Read', input: { file_path: `/src/f${n}.ts` } }),
    user([{ tool_use_id: `toolu_${n}`, type: 'tool_result', content: `${n}`.repeat(20_000) }]),
  ];
  return [user('read the three files'), ...read(1), ...read(2), ...read(3), assistant('msg_4', { type: 'text', text: 'done' })];
}

describe('replaySession against the window', () => {
  it('should refuse a prompt over the window and let rescue answer it on its one retry', async () => {
    // Arrange
    const conversations = billedByBytes(rebuildConversations(threeReads(), 'x.jsonl'));

    // Act: 14,000 tokens: the fourth request (about 16,000) is over it
    const report = await replaySession('x.jsonl', conversations, options({ window: 14_000 }));

    // Assert: the client alone is refused; rescue latches on the refusal and its retry fits
    const { recorded, rescue } = report.strategies;
    expect(recorded.refused).toBe(1);
    expect(recorded.refusedWhy).toEqual({ no_rescue: 1 });
    expect(recorded.series.refusedAt).toEqual([3]);
    expect(recorded.series.fullness[3]).toBeGreaterThan(1);
    expect(rescue.refused).toBe(0);
    expect(rescue.rescued).toBe(1);
    expect(rescue.epochs).toBe(1);
    expect(rescue.series.epochAt).toEqual([3]);
    // The row with a refusal warns that its cost is not comparable; rescue's has none
    const table = renderTable([report], { width: 200, compact: true });
    expect(table).toMatch(/ {2}as recorded .* \d+\.\d\d! /);
    expect(table).toMatch(/ {2}ctxshed rescue .* \d+\.\d\d /);
    const records = await fs.readdir(path.join(dir, 'conversations'));
    const record = await fs.readFile(path.join(dir, 'conversations', records[0] ?? ''), 'utf8');
    expect((JSON.parse(record) as { epochs: Array<{ trigger: string }> }).epochs.map((e) => e.trigger)).toEqual(['overflow']);
    // Never an answered request past the window, whatever the strategy; "last" on the footing of "peak"
    expect(recorded.finalFullness).toBe(recorded.series.fullness[2]);
    for (const s of Object.values(report.strategies)) {
      expect(s.peakFullness).toBeLessThanOrEqual(1);
      expect(s.finalFullness).toBeLessThanOrEqual(s.peakFullness);
      for (const [i, f] of s.series.fullness.entries()) expect(f <= 1 || s.series.refusedAt.includes(i)).toBe(true);
    }
  });

  it('should count a request as refused when nothing can bring it under the window', async () => {
    // Arrange: a prompt pasted whole, with no tool result to elide and nothing before it worth shedding
    const lines = [user('hi'), assistant('msg_1', { type: 'text', text: 'hello' }), user('p'.repeat(60_000)), assistant('msg_2', { type: 'text', text: 'ok' })];
    const conversations = billedByBytes(rebuildConversations(lines, 'x.jsonl'));

    // Act
    const report = await replaySession('x.jsonl', conversations, options({ window: 14_000 }));

    // Assert: refused under every strategy, rescued under none, and no peak past the window
    for (const s of Object.values(report.strategies)) {
      expect(s.refused).toBe(1);
      expect(s.rescued).toBe(0);
      expect(s.peakFullness).toBeLessThanOrEqual(1);
      expect(s.costUsd).toBeGreaterThan(0);
    }
    expect(report.strategies.rescue.refusedWhy).toEqual({ nothing_new: 1 });
    expect(report.strategies.shed.refused).toBe(1);
    expect(report.strategies.recorded.runway).toEqual({ requests: 1, end: 'compaction_point', ratio: 1 });
  });
});

describe('replaySession runway and cost basis', () => {
  /** Three requests counted 100,010, 140,010 and 166,010, an auto compaction at 167,094, two requests after it. */
  function compactedSession(): RebuiltConversation[] {
    const lines = [
      user('one'),
      assistant('msg_1', { type: 'text', text: 'a' }),
      user('two'),
      assistant('msg_2', { type: 'text', text: 'b' }),
      user('three'),
      assistant('msg_3', { type: 'text', text: 'c' }),
      line({ type: 'system', subtype: 'compact_boundary', timestamp: '2026-02-10T23:00:00.000Z', compactMetadata: { trigger: 'auto', preTokens: 167_094 } }),
      user('summary'),
      assistant('msg_4', { type: 'text', text: 'd' }, {}, '2026-02-10T23:01:00.000Z'),
      user('four'),
      assistant('msg_5', { type: 'text', text: 'e' }, {}, '2026-02-10T23:02:00.000Z'),
    ];
    const conversations = rebuildConversations(lines, 'x.jsonl');
    const first = conversations[0];
    [100_000, 140_000, 166_000].forEach((read, i) => {
      const r = first?.requests[i];
      if (first !== undefined && r !== undefined)
        first.requests[i] = { ...r, usage: { input: 0, cacheRead: read, cacheWrite: 0, cacheWrite1h: 0, output: 10 } };
    });
    return conversations;
  }

  it("should end the recorded runway at the transcript's boundary and give a strategy that changed nothing the same", async () => {
    // Act: at the window the session ran at
    const report = await replaySession('x.jsonl', compactedSession(), options());

    // Assert
    expect(report.compactionPoint).toMatchObject({ tokens: 167_094, source: 'transcript' });
    expect(report.strategies.recorded.runway).toEqual({ requests: 3, end: 'recorded_compaction', ratio: 1 });
    expect(report.strategies.rescue.runway).toEqual({ requests: 3, end: 'compaction_point', ratio: 1 });
    // The estimates run to the last recorded count (166,010), not the point: the table prints the one used
    expect(report.runwayEstimateTokens).toBe(166_010);
    expect(renderTable([report], { width: 1000, compact: false })).toContain(
      "'~' runway estimates run to 166,010 tokens, the recorded conversation's last count, where the client compacted",
    );
  });

  it('should end every runway at the first count reaching a lower point at a smaller window', async () => {
    // Act: 160,000 less the 32,906 margin is 127,094: the second request (140,010) reaches it
    const report = await replaySession('x.jsonl', compactedSession(), options({ window: 160_000 }));

    // Assert
    expect(report.compactionPoint.tokens).toBe(127_094);
    expect(report.strategies.recorded.runway).toEqual({ requests: 2, end: 'compaction_point', ratio: 1 });
  });

  it('should price every strategy up to the first compaction only, and say so in the header', async () => {
    // Act
    const report = await replaySession('x.jsonl', compactedSession(), options());

    // Assert: the two requests after the boundary are left out for every strategy
    expect(report.costBasis).toEqual({ basis: COST_BASIS, replayedRequests: 3, afterCompactionRequests: 2 });
    expect(report.requests).toBe(5);
    expect(report.strategies.recorded.series.fullness).toHaveLength(3);
    expect(report.strategies.shed.series.fullness).toHaveLength(3);
    const table = renderTable([report], { width: 1000, compact: false });
    expect(table).toContain(`cost: ${COST_BASIS}: 3 of 5 requests priced`);
    expect(table).toContain(
      "compaction point 167,094 tokens (84% of the window, 32,906 below it), from the margin of the transcript's auto compact_boundary; recorded: auto at 167,094 tokens",
    );
  });
});
