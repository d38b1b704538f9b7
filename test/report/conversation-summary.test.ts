import { describe, expect, it } from 'vitest';
import type { WireRecord } from '../../src/state/wire-record.js';
import { DEFAULT_TOKENS_PER_BYTE, summarizeConversation, summarizeConversations, tokensPerByteOf } from '../../src/report/conversation-summary.js';
import { addWireEntry, newWireTally, type WireTally } from '../../src/report/wire-tally.js';
import { block, epoch, KEY_A, KEY_B, record, rewritten, wire } from './report-fixtures.js';

function fold(records: WireRecord[]): WireTally {
  const tally = newWireTally();
  for (const r of records) addWireEntry(tally, { kind: 'record', record: r });
  return tally;
}

// 20 requests carrying the same epoch: its 3 blocks are elided again on each of them.
const SESSION = [
  wire({ t: '2026-01-01T00:00:00.000Z', fullness: 0.71, bytesOut: 40_000, usage: { input: 3, cacheCreation: 5000, cacheRead: 4997, output: 1 } }),
  ...Array.from({ length: 20 }, (_, i) => rewritten(`2026-01-01T00:01:${String(i).padStart(2, '0')}.000Z`, 1, 3, 6000, i === 0 ? { latched: 1 } : {})),
];
const RECORD = record([epoch(1, '2026-01-01T00:00:30.000Z', [block(0, 1000), block(1, 2000), block(2, 3000)])]);

describe('summarizeConversations', () => {
  it("should count an epoch's shed once, however many requests carry it", () => {
    const [summary] = summarizeConversations(fold(SESSION), [RECORD]);

    expect(summary!.requests).toBe(21);
    expect(summary!.epochs).toHaveLength(1);
    expect(summary!.blocksElided).toBe(3);
    expect(summary!.bytesElided).toBe(6000);
    expect(summary!.epochs[0]).toMatchObject({ n: 1, blocks: 3, bytes: 6000, fullness: 0.72, threshold: 0.7, source: 'record' });
  });

  it('should merge conversations the records and the wire log know, the most recently seen first', () => {
    const tally = fold([wire({ t: '2026-01-01T00:00:01.000Z' }), wire({ t: '2026-01-01T00:00:05.000Z' }, KEY_B)]);
    const onlyRecorded = record([epoch(1, '2025-12-31T00:00:00.000Z', [block(0, 1500)])], 'c'.repeat(64));

    const summaries = summarizeConversations(tally, [onlyRecorded]);

    expect(summaries.map((s) => s.key)).toEqual([KEY_B, KEY_A, 'c'.repeat(64)]);
    expect(summaries[2]).toMatchObject({ requests: 0, lastSeen: null, firstPrompt: 'Fix the cache bug', bytesElided: 1500 });
    expect(summaries[0]).toMatchObject({ firstPrompt: null, epochs: [], fullness: 0.125 });
  });

  it('should estimate each epoch from the wire log when the record is gone, still once per epoch', () => {
    const tally = fold([...SESSION, rewritten('2026-01-01T00:02:00.000Z', 2, 5, 10_000, { latched: 2 }), rewritten('2026-01-01T00:02:01.000Z', 2, 5, 10_000)]);

    const [summary] = summarizeConversations(tally, []);

    expect(summary!.epochs.map((e) => [e.n, e.blocks, e.bytes, e.latchedAt, e.source])).toEqual([
      [1, 3, 6000, '2026-01-01T00:01:00.000Z', 'wire'],
      [2, 2, 4000, '2026-01-01T00:02:00.000Z', 'wire'],
    ]);
    expect(summary!.bytesElided).toBe(10_000);
  });
});

describe('summarizeConversation', () => {
  it("should turn bytes into tokens at the conversation's own rate", () => {
    const tally = fold([wire({ t: '2026-01-01T00:00:00.000Z', bytesOut: 40_000, usage: { input: 0, cacheCreation: 4000, cacheRead: 4000, output: 1 } })]);

    const summary = summarizeConversation(RECORD, tally.conversations.get(KEY_A)!, KEY_A);

    expect(summary.tokensPerByte).toBe(0.2);
    expect(summary.tokensElided).toBe(1200);
  });
});

describe('tokensPerByteOf', () => {
  it('should fall back to 0.25 tokens per byte without usage to measure by', () => {
    const tally = fold([{ ...wire({ t: '2026-01-01T00:00:00.000Z' }), usage: undefined } as unknown as WireRecord]);

    expect(tokensPerByteOf(tally.conversations.get(KEY_A)!)).toBe(DEFAULT_TOKENS_PER_BYTE);
    expect(tokensPerByteOf(null)).toBe(0.25);
  });
});

describe('summarizeConversation refaults', () => {
  it("should count reads and blocks read back per epoch, only of the epoch's own blocks, and the rate", () => {
    const refaulted = [
      { epoch: 1, ordinal: 2, via: 'read' as const },
      { epoch: 1, ordinal: 9, via: 'read' as const },
    ];
    const tally = fold([...SESSION, rewritten('2026-01-01T00:02:00.000Z', 1, 3, 6000, { refaults: 2, refaulted })]);

    const summary = summarizeConversation(RECORD, tally.conversations.get(KEY_A)!, KEY_A);

    expect(summary.epochs[0]).toMatchObject({ refaults: 1, blocksRefaulted: 1 });
    expect(summary).toMatchObject({ refaults: 1, blocksRefaulted: 1, refaultRate: 0.3333 });
  });

  it('should give no rate without anything elided', () => {
    const summary = summarizeConversation(undefined, fold([wire({ t: '2026-01-01T00:00:00.000Z' })]).conversations.get(KEY_A)!, KEY_A);

    expect(summary).toMatchObject({ refaults: 0, blocksRefaulted: 0, refaultRate: null });
  });
});

describe('summarizeConversation, shed mode', () => {
  it("should give each shed epoch its span, counted apart from rescue's blocks, and priced per later turn with its basis", async () => {
    const { shedSession, SPAN_1, SPAN_2 } = await import('./render-fixtures.js');
    const { KEY_C } = await import('./report-fixtures.js');
    const summary = shedSession().summaries.find((s) => s.key === KEY_C)!;

    expect(summary).toMatchObject({ mode: 'shed', spansShed: 2, messagesShed: 14, blocksElided: 0, bytesElided: 0, tokensElided: 0, refaultRate: null });
    const [one, two] = summary.epochs;
    expect(one).toMatchObject({ mode: 'shed', blocks: 0, bytes: 0, tokens: 0 });
    expect(one!.span).toEqual({
      first: 1,
      last: 8,
      messages: 8,
      bytes: SPAN_1.bytes,
      tokens: Math.round(SPAN_1.bytes * summary.tokensPerByte),
      sha256: SPAN_1.sha256,
      pins: 1,
      tombstone: false,
      restores: 0,
      // 7,744 dropped tokens, all warm (the call before read 14,000 from the cache): a tenth each.
      perTurn: { shedTokens: 7_744, warmTokens: 7_744, coldTokens: 0, inputTokenEquivalent: 774.4, basis: 'cache_read_marginal', per: 'epoch' },
    });
    // 5,000 dropped, 2,000 of them warm: the rest at full input.
    expect(two!.span).toMatchObject({ messages: 6, bytes: SPAN_2.bytes, tombstone: true, pins: 0 });
    expect(two!.span!.perTurn).toMatchObject({ warmTokens: 2_000, coldTokens: 3_000, inputTokenEquivalent: 3_200, basis: 'blended' });
  });

  it('should leave a shed epoch unpriced when the wire log has no reading from before it, and a rescue epoch without a span', async () => {
    const { SPAN_1 } = await import('./render-fixtures.js');
    const { shedEpoch } = await import('./report-fixtures.js');

    const summary = summarizeConversation(record([shedEpoch(1, '2026-01-01T00:00:00.000Z', SPAN_1, 7_744)]), null, KEY_A);
    const rescue = summarizeConversation(record([epoch(1, '2026-01-01T00:00:00.000Z', [block(0, 4000)])]), null, KEY_A);

    expect(summary.epochs[0]!.span).toMatchObject({ bytes: 31_492, tokens: Math.round(31_492 * DEFAULT_TOKENS_PER_BYTE), perTurn: null });
    expect(rescue).toMatchObject({ mode: 'rescue', spansShed: 0, messagesShed: 0 });
    expect(rescue.epochs[0]).toMatchObject({ mode: 'rescue', span: null, blocks: 1, bytes: 4000 });
  });
});
