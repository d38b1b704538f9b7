import { describe, expect, it } from 'vitest';
import type { WireRecord } from '../../src/state/wire-record.js';
import { summarizeConversations } from '../../src/report/conversation-summary.js';
import { buildStatsReport } from '../../src/report/stats-report.js';
import { addWireEntry, newWireTally } from '../../src/report/wire-tally.js';
import type { Epoch } from '../../src/core/epoch-types.js';
import { renderStats } from '../../src/report/render-stats.js';
import { block, epoch, KEY_A, KEY_B, record, rewritten, wire } from './report-fixtures.js';

function statsOf(records: WireRecord[], recs = [record([epoch(1, '2026-01-01T00:00:30.000Z', [block(0, 4000), block(1, 4000)])])]) {
  const tally = newWireTally();
  for (const r of records) addWireEntry(tally, { kind: 'record', record: r });
  return buildStatsReport(tally, summarizeConversations(tally, recs));
}

describe('buildStatsReport', () => {
  it('should count a shed once per epoch, not once per request that carries it', () => {
    const requests = Array.from({ length: 50 }, (_, i) => rewritten(`2026-01-01T00:01:${String(i).padStart(2, '0')}.000Z`, 1, 2, 8000));

    const report = statsOf(requests);

    expect(report.overall.bytesElided).toBe(8000);
    expect(report.overall.perRequest.meanBytesElided).toBe(8000);
    expect(report.overall.perEpoch.meanBytesElided).toBe(8000);
    expect(report.conversations[0]!.totals.bytesElided).toBe(8000);
  });

  it('should count requests, pass-throughs by reason and requests in no conversation', () => {
    const report = statsOf([
      wire({ t: '2026-01-01T00:00:01.000Z' }),
      wire({ t: '2026-01-01T00:00:02.000Z' }),
      rewritten('2026-01-01T00:00:03.000Z', 1, 2, 8000),
      wire({ t: '2026-01-01T00:00:04.000Z', reason: 'elided_file_missing', epochs: 1, skipped: { file_missing: 2 } }),
      wire({ t: '2026-01-01T00:00:05.000Z' }, KEY_B),
      wire({ t: '2026-01-01T00:00:06.000Z', route: null, reason: 'not_a_model_call', status: 404 }, null),
    ]);

    expect(report.overall).toMatchObject({ requests: 6, rewritten: 1, passedThrough: 5, errors: 1, epochs: 1, blocksElided: 2 });
    expect(report.overall.passthrough).toEqual({ not_a_model_call: 1, no_epoch: 3, elided_file_missing: 1 });
    expect(report.overall.skippedBlocks).toEqual({ file_missing: 2 });
    expect(report.unkeyed).toEqual({ requests: 1, passthrough: { not_a_model_call: 1 }, errors: 1 });
    expect(report.conversations.map((c) => [c.key, c.totals.requests, c.totals.passedThrough])).toEqual([
      [KEY_B, 1, 1],
      [KEY_A, 4, 3],
    ]);
    expect(report.wire).toMatchObject({ records: 6, firstAt: '2026-01-01T00:00:01.000Z', lastAt: '2026-01-01T00:00:06.000Z' });
  });

  it("should give per-request means over the rewritten requests and tokens at each conversation's rate", () => {
    const usage = { input: 0, cacheCreation: 5000, cacheRead: 5000, output: 1 };
    const report = statsOf([
      rewritten('2026-01-01T00:00:01.000Z', 1, 2, 8000, { bytesIn: 40_000, bytesOut: 32_540, usage }),
      rewritten('2026-01-01T00:00:02.000Z', 1, 2, 8000, { bytesIn: 44_000, bytesOut: 36_540, usage }),
    ]);

    const tokensPerByte = 20_000 / (32_540 + 36_540);
    expect(report.overall.perRequest).toEqual({ meanBytesElided: 8000, meanBytesSaved: 7460, meanTokensElided: Math.round(8000 * tokensPerByte) });
    expect(report.overall.tokensElided).toBe(Math.round(8000 * tokensPerByte));
  });

  it('should give the refaults of each epoch and the rate, blocks read back over blocks elided', () => {
    const report = statsOf([
      rewritten('2026-01-01T00:01:00.000Z', 1, 2, 8000, { refaults: 1, refaulted: [{ epoch: 1, ordinal: 1, via: 'read' }] }),
      rewritten('2026-01-01T00:02:00.000Z', 1, 2, 8000, { refaults: 1, refaulted: [{ epoch: 1, ordinal: 1, via: 'bash' }] }),
    ]);

    expect(report.overall).toMatchObject({ refaults: 2, blocksRefaulted: 1, refaultRate: 0.5 });
    expect(report.conversations[0]!.epochs[0]).toMatchObject({ refaults: 2, blocksRefaulted: 1 });
  });

  it('should report an empty log as zeros', () => {
    const report = statsOf([], []);

    expect(report.overall).toMatchObject({ requests: 0, epochs: 0, bytesElided: 0, perRequest: { meanBytesElided: 0 } });
    expect(report.conversations).toEqual([]);
  });
});

describe('buildStatsReport, shed mode', () => {
  it("should count shed epochs, spans and messages apart, keep rescue's figures and means rescue's own, and sum no span", async () => {
    const { session, shedSession } = await import('./render-fixtures.js');
    const { KEY_C } = await import('./report-fixtures.js');
    const rescueOnly = session();
    const before = buildStatsReport(rescueOnly.tally, rescueOnly.summaries).overall;

    const { tally, summaries } = shedSession();
    const report = buildStatsReport(tally, summaries);

    expect(report.overall.shed).toEqual({ epochs: 2, spans: 2, messages: 14 });
    expect(report.overall.epochs).toBe(4);
    // Rescue's figures are what they were without the shed conversation beside them.
    const rescueFigures = (t: typeof before) => [t.blocksElided, t.bytesElided, t.tokensElided, t.perEpoch, t.perRequest, t.refaultRate];
    expect(rescueFigures(report.overall)).toEqual(rescueFigures(before));
    expect(before.shed).toEqual({ epochs: 0, spans: 0, messages: 0 });
    const shed = report.conversations.find((c) => c.key === KEY_C)!;
    expect(shed).toMatchObject({ mode: 'shed', totals: { epochs: 2, blocksElided: 0, bytesElided: 0, shed: { epochs: 2, spans: 2, messages: 14 } } });
    expect(shed.epochs.map((e) => e.span?.bytes)).toEqual([31_492, 20_000]);
    expect(JSON.stringify(report)).not.toContain(String(31_492 + 20_000));
  });
});

describe('buildStatsReport and renderStats, a correction epoch', () => {
  it('should count a correction epoch as a correction, never as a tool-result epoch of no blocks', () => {
    // Arrange: a tool-result epoch of 8,000 bytes, then a correction (trigger prefix_check) that removed thinking only.
    const first = epoch(1, '2026-01-01T00:00:30.000Z', [block(0, 4000), block(1, 4000)]);
    const correction: Epoch = { ...epoch(2, '2026-01-01T00:00:40.000Z', []), kind: 'thinking_only', trigger: 'prefix_check', items: { thinking_only: [] } };
    const requests = [rewritten('2026-01-01T00:00:50.000Z', 2, 2, 8000)];

    // Act
    const report = statsOf(requests, [record([first, correction])]);
    const text = renderStats(report, '/st');

    // Assert
    expect(report.overall).toMatchObject({ epochs: 2, corrections: 1, blocksElided: 2 });
    expect(report.overall.perEpoch.meanBytesElided).toBe(8000);
    expect(report.conversations[0]!.epochs.map((e) => e.kind)).toEqual(['tool_results', 'thinking_only']);
    expect(text).toContain('2, 2 blocks, 1 correction (thinking only)');
  });
});
