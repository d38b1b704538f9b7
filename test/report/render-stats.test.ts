import { describe, expect, it } from 'vitest';
import { renderStats } from '../../src/report/render-stats.js';
import { buildStatsReport } from '../../src/report/stats-report.js';
import { labelledSession, session, widest } from './render-fixtures.js';

describe('renderStats', () => {
  it('should print totals, a line per conversation, a line per epoch and the pass-through reasons', () => {
    const { tally, summaries } = session();

    const text = renderStats(buildStatsReport(tally, summaries), '/st');

    expect(text).toMatch(/requests +6 \(1 in no conversation\)/);
    expect(text).toMatch(/passed through +4: no_epoch 2, epoch_mismatch 1, not_a_model_call 1/);
    expect(text).toMatch(/elided in total +61\.7 KB, ~\d+(\.\d)?k tokens \(each epoch's shed counted once\)/);
    expect(text).toMatch(/\naaaaaaaaaaaa +1 +\d\d\d\d-\d\d-\d\d \d\d:00:00 +72\.6% +2 +50\.0 KB +~\d+(\.\d)?k +2 \(100\.0%\)/);
    expect(text).toMatch(/\nrefaults +2 of 3 blocks read back \(66\.7%\), 3 reads\n/);
    expect(text).toMatch(/\nepoch_mismatch +1 +The conversation has epochs/);
    expect(widest(text)).toBeLessThanOrEqual(100);
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
