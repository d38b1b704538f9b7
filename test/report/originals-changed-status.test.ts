import { describe, expect, it } from 'vitest';
import { summarizeConversations } from '../../src/report/conversation-summary.js';
import { renderStatus } from '../../src/report/render-status.js';
import { buildStatusReport } from '../../src/report/status-report.js';
import { addWireEntry, newWireTally } from '../../src/report/wire-tally.js';
import type { WireNote } from '../../src/state/wire-record.js';

const OPTIONS = { recentMs: 30 * 60_000, thresholds: { threshold: 0.7 } };
const SHA = 'a'.repeat(64);

function statusOf(notes: WireNote[]) {
  const tally = newWireTally();
  for (const note of notes) addWireEntry(tally, { kind: 'note', note });
  return buildStatusReport(tally, summarizeConversations(tally, []), OPTIONS);
}

const changed = (t: string, detail: string): WireNote => ({ t, note: 'original_changed', detail });

describe('status, originals that are not what their name says', () => {
  it('should count the notes of changed originals and keep the last, beside the state directory note', () => {
    const down: WireNote = { t: '2026-01-01T10:00:00.000Z', note: 'state_unavailable', detail: 'EACCES' };

    const report = statusOf([
      down,
      changed('2026-01-01T10:01:00.000Z', `original_size: elided/${SHA}.txt holds 20 bytes where its epoch recorded 10`),
      changed('2026-01-01T10:02:00.000Z', `original_hash: elided/${SHA}.json hashes to ${'b'.repeat(64)}, not to its name`),
    ]);

    expect(report.originalsChanged).toEqual({ count: 2, last: expect.stringMatching(/^original_hash: /), at: '2026-01-01T10:02:00.000Z' });
    expect(report.stateUnavailable).toEqual({ since: '2026-01-01T10:00:00.000Z', detail: 'EACCES' });
  });

  it('should say so on a line of its own that names verify', () => {
    const report = statusOf([changed('2026-01-01T10:01:00.000Z', `original_size: elided/${SHA}.txt holds 20 bytes where its epoch recorded 10`)]);

    // Wide enough that the line is laid out whole (status fits the terminal's width).
    const text = renderStatus(report, '/st', Date.parse('2026-01-01T10:03:00.000Z'), [], 400);

    expect(text).toContain(
      `! 1 original was not what its name says (run ctxshed verify); the last, 2026-01-01 10:01:00 (2m ago): original_size: elided/${SHA}.txt holds 20`,
    );
    expect(statusOf([]).originalsChanged).toBeNull();
  });
});
