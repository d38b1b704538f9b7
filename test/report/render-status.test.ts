import { describe, expect, it } from 'vitest';
import { REPORT_WIDTH } from '../../src/report/format-table.js';
import { renderStatus } from '../../src/report/render-status.js';
import { buildStatusReport } from '../../src/report/status-report.js';
import { NOW, session, widest } from './render-fixtures.js';

function statusText(options = { recentMs: 30 * 60_000, thresholds: { threshold: 0.7 } }): string {
  const { tally, summaries } = session();
  return renderStatus(buildStatusReport(tally, summaries, options), '/st', NOW);
}

describe('renderStatus', () => {
  it('should print the live conversations: fullness against the threshold, last epoch, rescued, requests, bytes saved', () => {
    const text = statusText();

    expect(text).toMatch(/KEY +FULL \/ THRESHOLD +EPOCH +RESCUED +REQS +SAVED +SEEN +PROMPT/);
    expect(text).toMatch(/\naaaaaaaaaaaa +55\.0% \/ 70\.0% +#2 5m ago +0 +4 +0 B +4m ago +Please read/);
    expect(text).toMatch(/\nbbbbbbbbbbbb +20\.0% \/ 70\.0%\* +- +0 +1 +0 B +3m ago/);
    expect(text).toContain('aaaaaaaaaaaa: the last request went through unchanged: epoch_mismatch');
    expect(text).toContain('*: no epoch yet');
    expect(widest(text)).toBeLessThanOrEqual(REPORT_WIDTH);
  });

  it('should say when the log is empty', () => {
    const empty = {
      lastRequestAt: null,
      recentMinutes: 30,
      defaultThreshold: 0.7,
      conversations: [],
      stateUnavailable: null,
      wire: { lines: 0, records: 0 },
      totals: {
        requests: 0,
        rewritten: 0,
        passthrough: {},
        errors: 0,
        sideCalls: 0,
        epochs: 0,
        blocksElided: 0,
        bytesElided: 0,
        shed: { epochs: 0, spans: 0, messages: 0, perEpoch: [] },
      },
    };

    expect(renderStatus(empty, '/st', NOW)).toContain('No requests in the wire log yet.');
  });
});

describe('renderStatus, shed mode', () => {
  it("should say what a shed conversation's last epoch shed, and what its RESCUED counts", async () => {
    const { shedSession } = await import('./render-fixtures.js');
    const { buildStatusReport } = await import('../../src/report/status-report.js');
    const { tally, summaries } = shedSession();

    const text = renderStatus(buildStatusReport(tally, summaries, { recentMs: 30 * 60_000, thresholds: { threshold: 0.7 } }), '/st', NOW);

    expect(text).toContain('cccccccccccc: shed mode: epoch #2 shed 6 messages (19.5 KiB); RESCUED counts span stubs');
    expect(text).not.toContain('aaaaaaaaaaaa: shed mode');
  });
});
