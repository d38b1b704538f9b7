import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { GATE_CEILING } from '../../src/core/break-even.js';
import { rebuildConversations } from '../../src/replay/rebuild-conversations.js';
import { replaySession } from '../../src/replay/replay-session.js';
import { verifyState } from '../../src/state/verify-state.js';
import { assistant, fixtureLines, line, user } from './fixtures.js';
import { type ReplayOver, useReplayDirs } from './replay-dirs.js';

const dirs = useReplayDirs('replay-session');
const options = dirs.options;

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
    const report = await replaySession('subagent.jsonl', conversations, options({ window: 60_000, keepRecent: 2, minBytes: 1024 }));

    // Assert: the epoch record is on disk, as the proxy writes it
    const rescue = report.strategies.rescue;
    expect(rescue.epochs).toBe(1);
    expect(rescue.series.epochAt).toHaveLength(1);
    expect(rescue.peakFullness).toBeLessThan(report.strategies.recorded.peakFullness);
    expect(rescue.bytesShed).toBeGreaterThan(0);
    expect(rescue.bytesShed).toBeLessThanOrEqual(report.strategies.perRequest.bytesShed ?? 0);
    expect(await fs.readdir(path.join(dirs.dir(), 'conversations'))).toHaveLength(1);
    expect((await fs.readdir(path.join(dirs.dir(), 'elided'))).length).toBeGreaterThan(0);
    expect(report.stateFailures).toEqual([]);
    expect(report.passthrough).toEqual({});
    expect(report.refaults.blocksElided).toBeGreaterThan(0);
    expect(report.refaults.blocksRefaulted).toBeLessThanOrEqual(report.refaults.blocksElided);
    expect(report.refaults.rate).toBe(Math.round((report.refaults.blocksRefaulted / report.refaults.blocksElided) * 10_000) / 10_000);
  });

  it('should make per-request rewriting break the cache more often than rescue', async () => {
    // Arrange
    const conversations = rebuildConversations(fixtureLines('subagent.jsonl'), 'subagent.jsonl');

    // Act
    const report = await replaySession('subagent.jsonl', conversations, options({ window: 60_000, keepRecent: 2, minBytes: 1024 }));

    // Assert
    const { perRequest, rescue } = report.strategies;
    expect(perRequest.epochs).toBeGreaterThan(rescue.epochs);
    expect(perRequest.cacheWriteTokens).toBeGreaterThan(rescue.cacheWriteTokens);
  });

  describe('calibration against the TTL', () => {
    /** Two requests `minutes` apart; the second billed as `second` (cache read, cache write), writes at `ttl`. */
    const session = (minutes: number, ttl: '5m' | '1h', second: [number, number]): string[] => {
      const usage = (read: number, write: number): Record<string, unknown> => ({
        input_tokens: 3,
        cache_read_input_tokens: read,
        cache_creation_input_tokens: write,
        output_tokens: 10,
        cache_creation: { ephemeral_5m_input_tokens: ttl === '5m' ? write : 0, ephemeral_1h_input_tokens: ttl === '1h' ? write : 0 },
      });
      const at = (m: number, s: number): string => new Date(Date.parse('2026-02-10T22:58:00.000Z') + m * 60_000 + s * 1000).toISOString();
      return [
        line({ type: 'user', timestamp: at(0, 0), message: { role: 'user', content: 'read the file' } }),
        assistant('msg_1', { type: 'tool_use', id: 'toolu_1', name: 'Read', input: { file_path: '/x' } }, usage(0, 5000), at(0, 2)),
        line({
          type: 'user',
          timestamp: at(minutes, 0),
          message: { role: 'user', content: [{ tool_use_id: 'toolu_1', type: 'tool_result', content: 'x'.repeat(4000) }] },
        }),
        assistant('msg_2', { type: 'text', text: 'done' }, usage(second[0], second[1]), at(minutes, 2)),
      ];
    };
    const missesOf = async (lines: string[]): Promise<unknown> =>
      (await replaySession('x.jsonl', rebuildConversations(lines, 'x.jsonl'), options())).calibration.misses;

    it('should foresee a miss after a gap over the 5-minute TTL', async () => {
      // Act: 6 minutes on a 5-minute TTL, billed cold
      const misses = await missesOf(session(6, '5m', [0, 6200]));

      // Assert
      expect(misses).toEqual({
        judged: 1,
        explained: { requests: 1, afterTtl: 1, modelChange: 0, other: 0, cacheWriteTokens: 6200 },
        unforeseeable: { requests: 0, cacheWriteTokens: 0 },
        modelColdBilledWarm: { requests: 0, afterTtl: 0 },
      });
    });

    it('should keep the same gap warm on a 1-hour TTL', async () => {
      // Act: billed warm
      const misses = await missesOf(session(6, '1h', [5000, 1200]));

      // Assert
      expect(misses).toMatchObject({ judged: 1, explained: { requests: 0 }, unforeseeable: { requests: 0 }, modelColdBilledWarm: { requests: 0 } });
    });

    it('should call a miss within the TTL unforeseeable', async () => {
      // Act: 1 minute, billed cold
      const misses = await missesOf(session(1, '5m', [0, 6200]));

      // Assert
      expect(misses).toMatchObject({ explained: { requests: 0 }, unforeseeable: { requests: 1, cacheWriteTokens: 6200 } });
    });

    it('should count a cache that outlived the TTL apart', async () => {
      // Act: 6 minutes on a 5-minute TTL, billed warm
      const misses = await missesOf(session(6, '5m', [5000, 1200]));

      // Assert
      expect(misses).toMatchObject({ explained: { requests: 0 }, modelColdBilledWarm: { requests: 1, afterTtl: 1 } });
    });
  });

  describe('shed mode', () => {
    /**
     * A session of tool calls whose results are `sizes[i]` bytes each, after one prompt. Its usage
     * is 2,000 tokens of system prompt and tools plus a quarter token per byte sent, all read from
     * the cache but the newest turn, as a warm session is billed.
     */
    const session = (sizes: readonly number[], paths: Record<number, string> = {}): string[] => {
      const lines = [user('read every file in the folder')];
      const sent: unknown[] = [{ role: 'user', content: [{ type: 'text', text: 'read every file in the folder' }] }];
      let before = 0;
      sizes.forEach((size, i) => {
        const total = 2000 + Math.round(JSON.stringify(sent).length / 4);
        const use = { type: 'tool_use', id: `toolu_${i}`, name: 'Read', input: { file_path: paths[i] ?? `/f${i}` } };
        lines.push(assistant(`msg_${i}`, use, { input_tokens: 3, cache_read_input_tokens: before, cache_creation_input_tokens: total - before - 3 }));
        const result = { tool_use_id: `toolu_${i}`, type: 'tool_result', content: `${i} `.padEnd(size, 'x') };
        lines.push(user([result]));
        sent.push({ role: 'assistant', content: [use] }, { role: 'user', content: [result] });
        before = total;
      });
      return lines;
    };
    const replay = async (sizes: readonly number[], over: ReplayOver, paths?: Record<number, string>): Promise<Awaited<ReturnType<typeof replaySession>>> =>
      replaySession('x.jsonl', rebuildConversations(session(sizes, paths), 'x.jsonl'), options(over));
    // Four large early reads, then small ones: the stale middle holds most of the bytes.
    const stale = [20_000, 20_000, 20_000, 20_000, ...Array<number>(10).fill(400)];

    it('should latch a shed epoch through the engine, and drop the span from every later request', async () => {
      // Act
      const report = await replay(stale, { window: 30_000 });

      // Assert: one epoch, the head kept, a span of whole messages, the gate passed
      const { shed, recorded } = report.strategies;
      expect(shed.epochs).toBe(1);
      expect(report.shedEpochs).toHaveLength(1);
      const [epoch] = report.shedEpochs;
      expect(epoch?.span.first).toBe(1);
      expect(epoch?.gate?.latch).toBe(true);
      expect(epoch?.gate?.breakEvenTurns).toBeLessThanOrEqual(epoch?.gate?.expectedRemainingTurns ?? 0);
      // At least three of the large reads: the recent window (its 3,000-token floor) keeps at most one.
      expect(epoch?.span.bytes).toBeGreaterThan(3 * 20_000);
      expect(shed.series.epochAt).toEqual([epoch?.mainIndex]);
      expect(shed.finalFullness).toBeLessThan(recorded.finalFullness / 2);
      expect(shed.bytesShed).toBeNull();
      expect((await fs.readdir(path.join(dirs.shedDir(), 'spans'))).filter((f) => f.endsWith('.json'))).toEqual([`${epoch?.span.sha256}.json`]);
      // Both state directories are ones `ctxshed verify` passes.
      expect((await verifyState(dirs.dir())).problems).toEqual([]);
      expect(await verifyState(dirs.shedDir())).toMatchObject({ problems: [], checked: { epochs: 1, spans: 1 } });
      expect(report.stateFailures).toEqual([]);
      expect(report.passthrough).toEqual({});
    });

    it('should charge the re-write after the head at the latch, and read the shed tokens no more', async () => {
      // Act
      const report = await replay(stale, { window: 30_000 });

      // Assert: the figure is priced per epoch, its basis stamped; the re-write is in the bill
      const [epoch] = report.shedEpochs;
      const { shed, recorded } = report.strategies;
      expect(epoch?.rewrite.cacheWriteTokens).toBeGreaterThan(0);
      expect(epoch?.rewrite.usd).toBeGreaterThan(0);
      expect(shed.cacheWriteTokens - recorded.cacheWriteTokens).toBe(epoch?.rewrite.cacheWriteTokens);
      expect(epoch?.perLaterTurn).toMatchObject({ basis: 'cache_read_marginal', coldTokens: 0 });
      expect(epoch?.perLaterTurn.shedTokens).toBeGreaterThan(15_000);
      expect(epoch?.perLaterTurn.inputTokenEquivalent).toBe(Math.round(epoch!.perLaterTurn.warmTokens * 0.1));
      // The shed tokens are read neither at the latch nor after it: the turns after pay less than the re-write cost.
      const readSaved = recorded.cacheReadTokens - shed.cacheReadTokens;
      expect(readSaved).toBeGreaterThan(epoch!.perLaterTurn.shedTokens * (epoch!.turnsAfter + 1) * 0.9);
      expect(shed.costUsd).toBeLessThan(recorded.costUsd);
    });

    it('should count a later Read of a file whose result was shed as a refault', async () => {
      // Act: the 13th call reads the first file again, after the span took its result out
      const quiet = await replay(stale, { window: 30_000 });
      const reread = await replay(stale, { window: 30_000 }, { 12: '/f0' });

      // Assert: every tool result of the span counts once
      const span = quiet.shedEpochs[0]!.span;
      expect(quiet.shedRefaults).toEqual({ blocksElided: span.messages / 2, blocksRefaulted: 0, refaults: 0, rate: 0 });
      expect(reread.shedRefaults).toMatchObject({ blocksElided: span.messages / 2, blocksRefaulted: 1, refaults: 1 });
    });

    it('should latch nothing where the gate refuses, and say so', async () => {
      // Act: the same session, with no turns left to pay a re-write back
      const report = await replay(stale, { window: 30_000, horizon: 0 });

      // Assert
      const { shed, recorded } = report.strategies;
      expect(shed.epochs).toBe(0);
      expect(report.shedEpochs).toEqual([]);
      expect(shed.costUsd).toBe(recorded.costUsd);
      expect(report.shedHeld.requests.gate).toBeGreaterThan(0);
      expect(report.shedHeld.firstGate?.gate).toMatchObject({ latch: false, expectedRemainingTurns: 0, horizonFrom: 'horizon' });
    });

    it('should let the gate refuse by itself when the span does not pay back in the turns left, until its ceiling', async () => {
      // Act: results of one size, one turn left to pay back: the re-write of the kept window
      // outweighs the few results that could be shed
      const report = await replay(Array<number>(12).fill(8000), { window: 24_000, horizon: 1 });

      // Assert: held back by the formula; what latched paid back by it, or latched at the ceiling and says so
      expect(report.shedEpochs.length).toBeGreaterThan(0);
      for (const epoch of report.shedEpochs) {
        const gate = epoch.gate!;
        if (gate.forcedAt === undefined) expect(gate.breakEvenTurns).toBeLessThanOrEqual(gate.expectedRemainingTurns);
        else expect(gate.forcedAt).toBeGreaterThanOrEqual(GATE_CEILING);
      }
      const first = report.shedHeld.firstGate;
      expect(first?.gate.latch).toBe(false);
      expect(first?.gate.horizonFrom).toBe('horizon');
      expect(first?.gate.breakEvenTurns).toBeGreaterThan(first?.gate.expectedRemainingTurns ?? Infinity);
    });
  });
});
