/**
 * The cache-TTL back-test (src/replay/ttl-pairs.ts, ttl-backtest.ts): every request is counted
 * once (a start, a judged pair, a skip or a copy), the table adds up, and the clock is monotone:
 * the same history with every gap shorter never predicts a warm pair cold.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { RecordedUsage } from '../src/replay/rebuild-conversations.js';
import { backtestTtl } from '../src/replay/ttl-backtest.js';
import { pairRequests, type TtlConversation, type TtlRequest } from '../src/replay/ttl-pairs.js';

const MIN = 60_000;

const usageArb: fc.Arbitrary<RecordedUsage> = fc
  .record({ read: fc.nat({ max: 200_000 }), write: fc.nat({ max: 50_000 }), oneHour: fc.boolean(), input: fc.nat({ max: 5_000 }) })
  .map(({ read, write, oneHour, input }) => ({ input, cacheRead: read, cacheWrite: write, cacheWrite1h: oneHour ? write : 0, output: 10 }));

/** Sessions of conversations with gaps from seconds to hours; some later files copy an earlier one's requests. */
const historyArb: fc.Arbitrary<TtlConversation[]> = fc
  .array(
    fc.record({
      // Whole seconds, up to three hours
      gaps: fc.array(fc.nat({ max: 3 * 3600 }), { minLength: 1, maxLength: 12 }),
      usages: fc.array(usageArb, { minLength: 12, maxLength: 12 }),
      model: fc.constantFrom('claude-opus-4-6', 'claude-haiku-4-5'),
      copies: fc.nat({ max: 4 }),
      compaction: fc.boolean(),
    }),
    { minLength: 1, maxLength: 5 },
  )
  .map((drafts) => {
    const out: TtlConversation[] = [];
    drafts.forEach((d, k) => {
      let t = Date.parse('2026-02-11T20:00:00.000Z') + k * 7 * MIN;
      const own: TtlRequest[] = d.gaps.map((g, i) => {
        t += g * 1000;
        return { id: `c${k}-r${i}`, model: d.model, sentMs: t, usage: d.usages[i]! };
      });
      // A later file may carry the first requests of the one before it, as a resume does.
      const carried = k > 0 ? (out[k - 1]?.requests ?? []).slice(0, d.copies) : [];
      out.push({ id: `c${k}`, session: `s${k}.jsonl`, kind: d.compaction ? 'subagent' : 'main', compaction: d.compaction, requests: [...carried, ...own] });
    });
    return out;
  });

describe('pairRequests', () => {
  it('should count every request once and add the table up', () => {
    fc.assert(
      fc.property(historyArb, (history) => {
        const paired = pairRequests(history);
        const report = backtestTtl(paired, history.length);

        const all = history.reduce((n, c) => n + c.requests.length, 0);
        const { copy, modelChanged, nothingCached, noTime } = paired.skipped;
        expect(paired.requests + copy).toBe(all);
        expect(paired.starts + paired.pairs.length + modelChanged + nothingCached + noTime).toBe(paired.requests);
        const c = report.confusion;
        expect(c.predictedWarm.billedWarm + c.predictedWarm.billedCold + c.predictedCold.billedWarm + c.predictedCold.billedCold).toBe(report.pairs);
        expect(report.agreement).toBeGreaterThanOrEqual(0);
        expect(report.agreement).toBeLessThanOrEqual(1);
        for (const p of paired.pairs) expect(p.gapMs).toBeGreaterThanOrEqual(0);
      }),
    );
  });

  it('should never predict a warm pair cold when every gap is shorter', () => {
    fc.assert(
      // Powers of two keep every squeezed time exact, so no two requests trade places
      fc.property(historyArb, fc.constantFrom(1, 0.5, 0.25, 0.125, 0.0625), (history, factor) => {
        const t0 = Math.min(...history.flatMap((c) => c.requests.map((r) => r.sentMs)));
        const squeezed = history.map((c) => ({ ...c, requests: c.requests.map((r) => ({ ...r, sentMs: t0 + (r.sentMs - t0) * factor })) }));

        const before = pairRequests(history).pairs;
        const after = pairRequests(squeezed).pairs;

        const squeezedWarm = new Map(after.map((p) => [p.next.id, p.predictedWarm]));
        expect([...squeezedWarm.keys()].sort()).toEqual(before.map((p) => p.next.id).sort());
        for (const p of before) if (p.predictedWarm) expect(squeezedWarm.get(p.next.id)).toBe(true);
      }),
    );
  });
});
