import { describe, expect, it } from 'vitest';
import { REPORT_WIDTH } from '../../src/report/format-table.js';
import { renderConversation } from '../../src/report/render-show.js';
import { summarizeConversation } from '../../src/report/conversation-summary.js';
import { block, epoch, KEY_A, record } from './report-fixtures.js';
import { labelledSession, NOW, session, widest } from './render-fixtures.js';

describe('renderConversation', () => {
  it('should print each epoch: when, why, the policy, and its blocks with ordinal, tool_use_id, bytes and sha256', () => {
    const { summaries, records } = session();
    const summary = summaries.find((s) => s.key === KEY_A)!;

    const text = renderConversation(summary, records[0]!.epochs, { elidedDir: '/st/elided', spansDir: '/st/spans' }, NOW);

    expect(text).toContain(`conversation ${KEY_A}`);
    expect(text).toMatch(/epoch 1 +latched \d{4}-\d\d-\d\d \d\d:00:00 \(10m ago\)/);
    expect(text).toContain('trigger   threshold\n  why       fullness 72.6% (14,522 tokens) >= threshold 70.0% of a 20,000-token window');
    expect(text).toContain('policy    elide-old-tool-results v1: older than the 6 newest tool results, over 1,024 bytes');
    expect(text).toMatch(/\n +0 +toolu_0 +48,213 +aaaaaaaaaaaa\n/);
    expect(text).toMatch(/\n +4 +toolu_4 +12,000 +cccccccccccc\n/);
    expect(text).toContain('  refaults  2 of 3 blocks read back (66.7%), 3 reads\n');
    expect(text).toContain('  refaults  2 of 2 blocks read back (100.0%), 3 reads\n');
    expect(text).toContain('  refaults  none read back\n');
    expect(text).toContain('Originals: /st/elided/<SHA256>.txt');
    expect(widest(text)).toBeLessThanOrEqual(REPORT_WIDTH);
  });

  it("should count the conversation's holds by reason, the working set's thrashes among them, and say none when there are none", () => {
    const { summaries, records } = session();
    const summary = summaries.find((s) => s.key === KEY_A)!;
    const tally = { ...summary.tally!, holds: { gain_too_small: 2, working_set_thrash: 5, stale_reading: 0 } };

    const text = renderConversation({ ...summary, tally }, records[0]!.epochs, { elidedDir: '/st/elided', spansDir: '/st/spans' }, NOW);
    const quiet = renderConversation(
      { ...summary, tally: { ...tally, holds: {} } },
      records[0]!.epochs,
      { elidedDir: '/st/elided', spansDir: '/st/spans' },
      NOW,
    );

    expect(text).toContain('  holds     working_set_thrash 5, gain_too_small 2 (over the threshold, no epoch latched)\n');
    expect(quiet).not.toContain('holds');
  });

  it('should say the figures are estimates when the epochs come from the wire log alone', () => {
    const { summaries } = session();
    const summary = summaries.find((s) => s.key === KEY_A)!;
    const fromWire = { ...summary, epochs: summary.epochs.map((e) => ({ ...e, source: 'wire' as const, fullness: null, policy: null })) };

    const text = renderConversation(fromWire, [], { elidedDir: '/st/elided', spansDir: '/st/spans' }, NOW);

    expect(text).toContain('estimated from the wire log');
    expect(text).not.toContain('why ');
  });

  it("should print a shed epoch's span, pins, its per-turn price with the basis, and the gate it passed", async () => {
    const { shedSession, SPAN_1 } = await import('./render-fixtures.js');
    const { KEY_C } = await import('./report-fixtures.js');
    const { summaries, records } = shedSession();
    const summary = summaries.find((s) => s.key === KEY_C)!;

    const text = renderConversation(summary, records.find((r) => r.key === KEY_C)!.epochs, { elidedDir: '/st/elided', spansDir: '/st/spans' }, NOW);

    expect(text).toContain("  shed      2 spans, 14 whole messages in 2 epochs (each epoch's figures below, never summed)\n");
    expect(text).not.toContain('  elided    ');
    expect(text).toContain('policy    shed-stale-middle v1: between the head and the messages of the 6 newest tool results');
    expect(text).toMatch(new RegExp(`shed      8 messages \\(1\\.\\.8\\), 30\\.8 KiB \\(~[\\d.]+k tokens\\)\\n  handle    ${SPAN_1.sha256}`));
    expect(text).toContain('pins      1 text\n');
    expect(text).toContain('pins      none; the first prompt is in it');
    expect(text).toContain(
      'per turn  ~774 input tokens a later turn no longer pays, basis cache_read_marginal\n            (7,744 warm at the cache-read marginal, 0 cold at full input)',
    );
    expect(text).toContain('basis blended\n            (2,000 warm at the cache-read marginal, 3,000 cold at full input)');
    expect(text).toContain(
      'gate      pays back in 15 turns, within the 40 turns left (--horizon)\n            (1.25 - 0.1) x 10,071 re-written / (0.1 x 7,744 dropped)',
    );
    expect(text).toContain('Originals: /st/spans/<HANDLE>.md (readable) and <HANDLE>.json (the exact bytes)');
    expect(widest(text)).toBeLessThanOrEqual(REPORT_WIDTH);
  });

  it('should count a span read back by its handle as a refault of the span, and say when it was restored twice', async () => {
    const { SPAN_1 } = await import('./render-fixtures.js');
    const { KEY_C, record: recordOf, shedEpoch, wire } = await import('./report-fixtures.js');
    const { addWireEntry, newWireTally } = await import('../../src/report/wire-tally.js');
    const span = (call: string) => ({ epoch: 1, ordinal: 1, via: 'restore' as const, call, span: true as const });
    const tally = newWireTally();
    const lines = [
      wire({ t: '2026-01-01T10:03:00.000Z', refaults: 1, refaulted: [span('aaaa')] }, KEY_C),
      // The same call again (a restarted proxy logging it twice) counts once.
      wire({ t: '2026-01-01T10:04:00.000Z', refaults: 1, refaulted: [span('aaaa')] }, KEY_C),
      wire({ t: '2026-01-01T10:05:00.000Z', refaults: 1, refaulted: [span('bbbb')] }, KEY_C),
    ];
    for (const r of lines) addWireEntry(tally, { kind: 'record', record: r });
    const epochs = [
      {
        ...shedEpoch(1, '2026-01-01T10:02:00.000Z', SPAN_1, 7_744),
        policy: { name: 'shed-stale-middle', version: 3, keepRecent: 0, minBytes: 0, recentTokens: 7_000 },
      },
    ];
    const summary = summarizeConversation(recordOf(epochs, KEY_C), tally.conversations.get(KEY_C) ?? null, KEY_C);

    const text = renderConversation(summary, epochs, { elidedDir: '/st/elided', spansDir: '/st/spans' }, NOW);

    expect(summary.epochs[0]!.span!.restores).toBe(2);
    expect(summary.refaults).toBe(0);
    expect(text).toContain('  restored  2 times: the policy cut too close\n');
    expect(text).toContain('policy    shed-stale-middle v3: between the head and a recent window of 7,000 tokens');
  });

  it('should say when the gate gave way at its ceiling, and at what fullness', async () => {
    const { shedSession } = await import('./render-fixtures.js');
    const { KEY_C } = await import('./report-fixtures.js');
    const { summaries, records } = shedSession();
    const summary = summaries.find((s) => s.key === KEY_C)!;
    const epochs = records
      .find((r) => r.key === KEY_C)!
      .epochs.map((e) => (e.gate === undefined ? e : { ...e, gate: { ...e.gate, expectedRemainingTurns: 3, latch: true, forcedAt: 0.9012 } }));

    const text = renderConversation(summary, epochs, { elidedDir: '/st/elided', spansDir: '/st/spans' }, NOW);

    expect(text).toContain('gate      pays back in 15 turns, beyond the 3 turns left (--horizon); latched anyway at 90.1%, past the 85.0% ceiling');
  });

  it("should print a version 3 epoch's ledger, a row per block considered, as the seed's table does", () => {
    const { summaries, records } = labelledSession();
    const summary = summaries.find((s) => s.key === KEY_A)!;

    const text = renderConversation(summary, records[0]!.epochs, { elidedDir: '/st/elided', spansDir: '/st/spans' }, NOW);

    expect(text).toContain('policy    elide-old-tool-results v3:');
    expect(text).toContain('\n    Read#4 cccccccccccc drop local superseded\n    Bash#5 dddddddddddd keep 0.3\n');
    expect(text.split('ledger    ').length - 1).toBe(1);
  });

  it("should print an overflow epoch's trigger and the tokens the API refused against its maximum", () => {
    const base = epoch(1, '2026-01-01T10:00:00.000Z', [block(0, 48_213)]);
    const overflow = {
      ...base,
      trigger: 'overflow' as const,
      reason: { fullness: 1.075, threshold: 0.7, window: 200_000, contextTokens: 215_000, limit: 200_000 },
    };
    const summary = summarizeConversation(record([overflow]), null, KEY_A);

    const text = renderConversation(summary, [overflow], { elidedDir: '/st/elided', spansDir: '/st/spans' }, NOW);

    expect(text).toContain(
      'trigger   overflow\n  why       the API refused the prompt: 215,000 tokens > 200,000 maximum (fullness 107.5% of a 200,000-token window)',
    );
  });

  it('should say the token threshold fired when it did', () => {
    const base = epoch(1, '2026-01-01T10:00:00.000Z', [block(0, 48_213)]);
    const byTokens = {
      ...base,
      reason: { fullness: 0.13, threshold: 0.7, window: 1_000_000, contextTokens: 130_000, crossed: 'tokens' as const, thresholdTokens: 120_000 },
    };
    const summary = summarizeConversation(record([byTokens]), null, KEY_A);

    const text = renderConversation(summary, [byTokens], { elidedDir: '/st/elided', spansDir: '/st/spans' }, NOW);

    expect(text).toContain('why       130,000 tokens >= token threshold 120,000 (fullness 13.0% of a 1,000,000-token window)');
  });
});
