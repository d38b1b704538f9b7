import { describe, expect, it } from 'vitest';
import type { WireRecord } from '../../src/state/wire-record.js';
import { summarizeConversations } from '../../src/report/conversation-summary.js';
import { buildStatusReport } from '../../src/report/status-report.js';
import { addWireEntry, newWireTally } from '../../src/report/wire-tally.js';
import type { ConversationRecord } from '../../src/state/conversation-record.js';
import { block, epoch, KEY_A, KEY_B, record, rewritten, wire } from './report-fixtures.js';

const OPTIONS = { recentMs: 30 * 60_000, thresholds: { threshold: 0.7 } };

function statusOf(records: WireRecord[], recs: ConversationRecord[] = [], notes: object[] = []) {
  const tally = newWireTally();
  for (const r of records) addWireEntry(tally, { kind: 'record', record: r });
  for (const note of notes) addWireEntry(tally, { kind: 'note', note: note as never });
  return buildStatusReport(tally, summarizeConversations(tally, recs), OPTIONS);
}

describe('buildStatusReport', () => {
  it('should show the conversations seen within the recent window of the last request', () => {
    const report = statusOf([
      wire({ t: '2026-01-01T08:00:00.000Z' }, KEY_B),
      wire({ t: '2026-01-01T10:00:00.000Z' }),
      wire({ t: '2026-01-01T10:20:00.000Z', fullness: 0.4 }),
    ]);

    expect(report.conversations.map((c) => c.key)).toEqual([KEY_A]);
    expect(report.conversations[0]).toMatchObject({ requests: 2, fullness: 0.4, lastSeen: '2026-01-01T10:20:00.000Z' });
    expect(report.lastRequestAt).toBe('2026-01-01T10:20:00.000Z');
  });

  it("should give the last epoch, the last request's stubs and bytes saved, and the threshold it latched at", () => {
    const rec = record([epoch(1, '2026-01-01T10:00:00.000Z', [block(0, 3000)]), epoch(2, '2026-01-01T10:05:00.000Z', [block(1, 5000)])]);
    const report = statusOf([rewritten('2026-01-01T10:06:00.000Z', 2, 2, 8000, { bytesIn: 50_000, bytesOut: 42_540 })], [rec]);

    expect(report.conversations[0]).toMatchObject({
      epochs: 2,
      lastEpoch: { n: 2, latchedAt: '2026-01-01T10:05:00.000Z', blocks: 1, bytes: 5000 },
      lastRequest: { rescued: 2, bytesSaved: 7460, reason: null },
      threshold: 0.7,
      thresholdFrom: 'epoch',
    });
  });

  it('should show the default threshold for a conversation without an epoch', () => {
    const report = statusOf([wire({ t: '2026-01-01T10:00:00.000Z' })]);

    expect(report.conversations[0]).toMatchObject({ threshold: 0.7, thresholdFrom: 'default', lastEpoch: null, epochs: 0 });
  });

  it('should show the fullness a token threshold stands for on a 1M window, from the epoch or the default', () => {
    const base = epoch(1, '2026-01-01T10:00:00.000Z', [block(0, 3000)]);
    const byTokens = {
      ...base,
      reason: { fullness: 0.13, threshold: 0.7, window: 1_000_000, contextTokens: 130_000, crossed: 'tokens' as const, thresholdTokens: 120_000 },
    };
    const latched = statusOf([rewritten('2026-01-01T10:06:00.000Z', 1, 1, 3000)], [record([byTokens])]);
    const fresh = statusOf([wire({ t: '2026-01-01T10:00:00.000Z', window: 1_000_000 })]);
    const small = statusOf([wire({ t: '2026-01-01T10:00:00.000Z', window: 200_000 })]);

    expect(latched.conversations[0]).toMatchObject({ threshold: 0.12, thresholdFrom: 'epoch' });
    expect(fresh.conversations[0]).toMatchObject({ threshold: 0.12, thresholdFrom: 'default' });
    expect(small.conversations[0]).toMatchObject({ threshold: 0.7, thresholdFrom: 'default' });
  });

  it("should say so while the proxy's last note is that the state directory is unavailable", () => {
    const down = { t: '2026-01-01T10:00:00.000Z', note: 'state_unavailable', detail: 'EACCES' };
    const up = { t: '2026-01-01T10:01:00.000Z', note: 'state_recovered', detail: 'ok' };

    expect(statusOf([], [], [down]).stateUnavailable).toEqual({ since: '2026-01-01T10:00:00.000Z', detail: 'EACCES' });
    expect(statusOf([], [], [down, up]).stateUnavailable).toBeNull();
  });

  it('should show nothing for an empty log', () => {
    const report = statusOf([]);

    expect(report).toMatchObject({ lastRequestAt: null, conversations: [], wire: { lines: 0, records: 0 } });
    expect(report.totals).toEqual({
      requests: 0,
      rewritten: 0,
      passthrough: {},
      errors: 0,
      sideCalls: 0,
      epochs: 0,
      blocksElided: 0,
      bytesElided: 0,
      shed: { epochs: 0, spans: 0, messages: 0, perEpoch: [] },
    });
  });

  it('should total the whole log and every record, old conversations and requests of none included, each epoch once', () => {
    const rec = record([epoch(1, '2026-01-01T10:00:00.000Z', [block(0, 3000), block(2, 1500)]), epoch(2, '2026-01-01T10:05:00.000Z', [block(1, 5000)])]);
    const report = statusOf(
      [
        wire({ t: '2026-01-01T06:00:00.000Z', status: 529 }, KEY_B),
        wire({ t: '2026-01-01T06:00:01.000Z', reason: 'not_a_model_call', route: null }, null),
        wire({ t: '2026-01-01T10:00:00.000Z' }),
        rewritten('2026-01-01T10:01:00.000Z', 1, 2, 4500),
        rewritten('2026-01-01T10:06:00.000Z', 2, 3, 9500),
      ],
      [rec],
    );

    expect(report.conversations.map((c) => c.key)).toEqual([KEY_A]);
    expect(report.totals).toEqual({
      requests: 5,
      rewritten: 2,
      passthrough: { no_epoch: 2, not_a_model_call: 1 },
      errors: 1,
      sideCalls: 0,
      epochs: 2,
      blocksElided: 3,
      bytesElided: 9500,
      shed: { epochs: 0, spans: 0, messages: 0, perEpoch: [] },
    });
  });

  it("should keep shed epochs apart from rescue's blocks: counted, and each span's bytes on its own line", async () => {
    const { shedSession, SPAN_1, SPAN_2 } = await import('./render-fixtures.js');
    const { KEY_C } = await import('./report-fixtures.js');
    const { tally, summaries } = shedSession();

    const report = buildStatusReport(tally, summaries, OPTIONS);

    expect(report.totals).toMatchObject({ epochs: 4, blocksElided: 3, bytesElided: 63_213 });
    expect(report.totals.shed).toEqual({
      epochs: 2,
      spans: 2,
      messages: 14,
      perEpoch: [
        { key: KEY_C, n: 1, messages: 8, bytes: SPAN_1.bytes },
        { key: KEY_C, n: 2, messages: 6, bytes: SPAN_2.bytes },
      ],
    });
    const shed = report.conversations.find((c) => c.key === KEY_C)!;
    expect(shed.lastEpoch).toMatchObject({ n: 2, mode: 'shed', blocks: 0, bytes: 0, span: { messages: 6, bytes: SPAN_2.bytes } });
    expect(report.conversations.find((c) => c.key !== KEY_C && c.lastEpoch !== null)!.lastEpoch).toMatchObject({ mode: 'rescue', span: null });
  });
});
