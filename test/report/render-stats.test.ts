import { describe, expect, it } from 'vitest';
import { REPORT_WIDTH } from '../../src/report/format-table.js';
import { renderStats } from '../../src/report/render-stats.js';
import { buildStatsReport } from '../../src/report/stats-report.js';
import { labelledSession, session, widest } from './render-fixtures.js';

describe('renderStats', () => {
  it('should print totals, a line per conversation, a line per epoch and the pass-through reasons', () => {
    const { tally, summaries } = session();

    const text = renderStats(buildStatsReport(tally, summaries), '/st');

    expect(text).toMatch(/requests +6 \(1 in no conversation\)/);
    expect(text).toMatch(/passed through +4: no_epoch 2, epoch_mismatch 1, not_a_model_call 1/);
    expect(text).toMatch(/elided in total +61\.7 KiB, ~\d+(\.\d)?k tokens \(each epoch's shed counted once\)/);
    expect(text).toMatch(/\naaaaaaaaaaaa +1 +\d\d\d\d-\d\d-\d\d \d\d:00:00 +72\.6% +2 +50\.0 KiB +~\d+(\.\d)?k +2 \(100\.0%\)/);
    expect(text).toMatch(/\nrefaults +2 of 3 blocks read back \(66\.7%\), 3 reads\n/);
    expect(text).toMatch(/\nepoch_mismatch +1 +The conversation has epochs/);
    expect(widest(text)).toBeLessThanOrEqual(REPORT_WIDTH);
  });

  it('should count ledger rows per label over the epochs that keep a ledger, and say nothing of labels without one', () => {
    const labelled = labelledSession();
    const plain = session();

    const text = renderStats(buildStatsReport(labelled.tally, labelled.summaries), '/st');
    const without = renderStats(buildStatsReport(plain.tally, plain.summaries), '/st');

    expect(text).toMatch(/\nlabels +pointer 0, drop 1, keep 1 \(docs\/labels\.md\)\n/);
    expect(without).not.toContain('\nlabels ');
    expect(buildStatsReport(labelled.tally, labelled.summaries).overall.labels).toEqual({ keep: 1, pointer: 0, drop: 1 });
  });
});

describe('renderStats, holds', () => {
  it('should print the requests over the threshold that latched nothing, by reason, in the words of the code', () => {
    const { tally, summaries } = session();
    const report = buildStatsReport(tally, summaries);
    const withHolds = { ...report, overall: { ...report.overall, holds: { gate: 1, gain_too_small: 5 } } };

    const text = renderStats(withHolds, '/st');
    const without = renderStats(report, '/st');

    expect(text).toContain('Over the threshold, no epoch latched, by reason (docs/reasons.md)');
    expect(text).toMatch(/\ngain_too_small +5 +What the epoch would take out/);
    expect(text.indexOf('gain_too_small')).toBeLessThan(text.indexOf('\ngate '));
    expect(without).not.toContain('no epoch latched');
    expect(widest(text)).toBeLessThanOrEqual(REPORT_WIDTH);
  });
});

describe('renderStats, overflow retries', () => {
  it('should print the refusals as too long and what became of them, and nothing when there were none', () => {
    const { tally, summaries } = session();
    const report = buildStatsReport(tally, summaries);
    const withRetries = { ...report, overall: { ...report.overall, overflow: { retried_ok: 2, retried_error: 1, nothing_new: 1 } } };

    const text = renderStats(withRetries, '/st');
    const without = renderStats(report, '/st');

    expect(text).toMatch(/\ntoo long +4 refused: 3 retried with a new epoch \(2 answered 200\), 1 not \(nothing_new 1\)\n/);
    expect(without).not.toContain('\ntoo long');
  });
});

describe('renderStats, shed mode', () => {
  it('should print a row per shed epoch with its span, tokens, per-turn price and basis, and no total of them', async () => {
    const { shedSession } = await import('./render-fixtures.js');
    const { tally, summaries } = shedSession();

    const text = renderStats(buildStatsReport(tally, summaries), '/st');

    expect(text).toMatch(/epochs +4, 3 blocks\nshed +2 spans, 14 messages in 2 shed epochs \(each one's figures below, never summed\)\n/);
    expect(text).toMatch(/\nper rescue request +55\.9 KiB, ~14k tokens elided; 55\.2 KiB smaller \(mean of rewritten requests\)\n/);
    expect(text).toMatch(/\ncccccccccccc +\d+ +\d+ +\d+ +2 +- +- +- +Port the parser/);
    expect(text).toContain('Shed per epoch (spans of whole messages, each epoch on its own, never summed)');
    expect(text).toMatch(/KEY +EPOCH +AT +MESSAGES +SHED +TOKENS +PER TURN +BASIS\n/);
    expect(text).toMatch(/\ncccccccccccc +1 +72\.0% +8 \(1\.\.8\) +30\.8 KiB +~[\d.]+k +~774 +cache_read_marginal\n/);
    expect(text).toMatch(/\ncccccccccccc +2 +75\.0% +6 \(10\.\.15\) +19\.5 KiB +~[\d.]+k +~3\.2k +blended\n/);
    expect(text).toContain('Spans restored (refaults of a span): none.');
    // The rescue per-epoch table keeps rescue's epochs only.
    const rescueTable = text.split('Per epoch (what each one shed, counted once)\n')[1]!.split('\n\n')[0]!;
    expect(rescueTable).not.toContain('cccccccccccc');
    expect(widest(text)).toBeLessThanOrEqual(REPORT_WIDTH);
  });

  it("should leave out rescue's elided lines when every epoch is a shed one", async () => {
    const { shedSession } = await import('./render-fixtures.js');
    const { KEY_C } = await import('./report-fixtures.js');
    const { tally, summaries } = shedSession();

    const text = renderStats(
      buildStatsReport(
        tally,
        summaries.filter((s) => s.key === KEY_C),
      ),
      '/st',
    );

    expect(text).toContain('shed                2 spans');
    expect(text).not.toContain('elided in total');
    expect(text).not.toContain('Per epoch (what each one shed');
  });
});

describe('renderStats, a shed epoch with no reading before it', () => {
  it('should print its span with no per-turn price and no basis rather than guess what was warm', async () => {
    const { SPAN_1 } = await import('./render-fixtures.js');
    const { KEY_C, record, shedEpoch } = await import('./report-fixtures.js');
    const { summarizeConversation } = await import('../../src/report/conversation-summary.js');
    const { newWireTally } = await import('../../src/report/wire-tally.js');
    const summary = summarizeConversation(record([shedEpoch(1, '2026-01-01T10:02:00.000Z', SPAN_1, 7_744)], KEY_C), null, KEY_C);

    const text = renderStats(buildStatsReport(newWireTally(), [summary]), '/st');

    expect(text).toMatch(/\ncccccccccccc +1 +72\.0% +8 \(1\.\.8\) +30\.8 KiB +~7\.9k +- +-\n/);
  });
});

describe('renderStats, thinking dropped by the API', () => {
  it('should print the blocks the API dropped by reason, and nothing when there were none', () => {
    const { tally, summaries } = session();
    const report = buildStatsReport(tally, summaries);
    const withDropped = {
      ...report,
      overall: {
        ...report.overall,
        thinkingDropped: 5,
        thinkingDroppedRequests: 2,
        thinkingDroppedBy: { model_binding_mismatch: 1, prefix_binding_mismatch: 4 },
      },
    };

    const text = renderStats(withDropped, '/st');

    expect(text).toMatch(/\nthinking dropped +5 blocks in 2 requests: prefix_binding_mismatch 4, model_binding_mismatch 1\n/);
    expect(widest(text)).toBeLessThanOrEqual(REPORT_WIDTH);
    expect(renderStats(report, '/st')).not.toContain('thinking dropped');
    expect(report.overall.thinkingDropped).toBe(0);
  });
});
