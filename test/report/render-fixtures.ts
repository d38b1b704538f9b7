/** A folded session of two conversations, for the render tests. */
import type { WireRecord } from '../../src/state/wire-record.js';
import { summarizeConversations, type ConversationSummary } from '../../src/report/conversation-summary.js';
import { addWireEntry, newWireTally, type WireTally } from '../../src/report/wire-tally.js';
import type { ConversationRecord } from '../../src/state/conversation-record.js';
import type { Epoch } from '../../src/core/epoch-types.js';
import { block, epoch, KEY_A, KEY_B, KEY_C, record, rewritten, shedEpoch, wire } from './report-fixtures.js';
import { blocksOf } from '../../src/core/epoch-items.js';

export const NOW = Date.parse('2026-01-01T10:10:00.000Z');
const LONG_PROMPT = `Please read every file under src/ and then explain, in detail, ${'how the cache works '.repeat(8)}`;

/** Records, a tally and summaries of a small session. */
export function session(): { tally: WireTally; records: ConversationRecord[]; summaries: ConversationSummary[] } {
  const records = [
    record(
      [
        epoch(1, '2026-01-01T10:00:00.000Z', [block(0, 48_213, 'a'.repeat(64)), block(1, 3000, 'b'.repeat(64))], 0.7261),
        epoch(2, '2026-01-01T10:05:00.000Z', [block(4, 12_000, 'c'.repeat(64))], 0.71),
      ],
      KEY_A,
      LONG_PROMPT.slice(0, 200),
    ),
  ];
  const wires: WireRecord[] = [
    wire({ t: '2026-01-01T09:59:00.000Z', fullness: 0.69 }),
    rewritten('2026-01-01T10:00:00.000Z', 1, 2, 51_213, { latched: 1 }),
    rewritten('2026-01-01T10:05:00.000Z', 2, 3, 63_213, {
      latched: 2,
      fullness: 0.52,
      refaults: 2,
      refaulted: [
        { epoch: 1, ordinal: 0, via: 'read' },
        { epoch: 1, ordinal: 1, via: 'bash' },
      ],
    }),
    wire({
      t: '2026-01-01T10:06:00.000Z',
      reason: 'epoch_mismatch',
      epochs: 2,
      fullness: 0.55,
      refaults: 1,
      refaulted: [{ epoch: 1, ordinal: 0, via: 'restore' }],
    }),
    wire({ t: '2026-01-01T10:07:00.000Z', fullness: 0.2 }, KEY_B),
    wire({ t: '2026-01-01T10:07:30.000Z', route: null, reason: 'not_a_model_call' }, null),
  ];
  const tally = newWireTally();
  for (const r of wires) addWireEntry(tally, { kind: 'record', record: r });
  return { tally, records, summaries: summarizeConversations(tally, records) };
}

/** The longest line of `text`, in characters. */
export function widest(text: string): number {
  return Math.max(...text.split('\n').map((line) => [...line].length));
}

/** The session with its second epoch latched at policy version 3: labelled blocks and a ledger. */
export function labelledSession(): { tally: WireTally; records: ConversationRecord[]; summaries: ConversationSummary[] } {
  const { tally, records } = session();
  const [first, second] = records[0]!.epochs;
  const labelled: Epoch = {
    ...(second as Epoch),
    policy: { ...second!.policy, version: 3 },
    items: {
      tool_results: blocksOf(second!).map((b) => ({ ...b, label: 'drop', rule: 'superseded', tool: 'Read', input: '/src/cache.ts', refetch: 'same-call' })),
    },
    ledger: [
      { ordinal: 4, id: 'toolu_4', tool: 'Read', sha: 'c'.repeat(12), score: 'local', verdict: 'drop', rule: 'superseded', refetch: 'same-call' },
      { ordinal: 5, id: 'toolu_5', tool: 'Bash', sha: 'd'.repeat(12), score: 0.3, verdict: 'keep', rule: 'model', refetch: 'elided-file' },
    ],
  };
  const labelledRecords = [{ ...records[0]!, epochs: [first!, labelled] }];
  return { tally, records: labelledRecords, summaries: summarizeConversations(tally, labelledRecords) };
}

const SHED_BYTES = { bytesIn: 100_000, bytesOut: 70_000 };

/** The spans the shed conversation of `shedSession` froze. */
export const SPAN_1 = { first: 1, last: 8, sha256: 'd'.repeat(64), bytes: 31_492, pins: ['[ctxshed:goal] Keep the API stable.'] };
export const SPAN_2 = { first: 10, last: 15, sha256: 'e'.repeat(64), bytes: 20_000, pins: [], tombstone: 'Port it.' };

/**
 * `session()` and a shed conversation (KEY_C) beside it: two epochs, each shedding a span. The
 * first latched after a call that read 14,000 tokens from the cache (all of its 7,744 dropped
 * tokens warm), the second after one that read 2,000 (2,000 of its 5,000 warm).
 */
export function shedSession(): { tally: WireTally; records: ConversationRecord[]; summaries: ConversationSummary[] } {
  const { tally, records } = session();
  const shed = record(
    [shedEpoch(1, '2026-01-01T10:02:00.000Z', SPAN_1, 7_744), shedEpoch(2, '2026-01-01T10:04:00.000Z', SPAN_2, 5_000, 0.75)],
    KEY_C,
    'Port the parser to the new API',
  );
  const usage = (cacheRead: number): NonNullable<WireRecord['usage']> => ({ input: 3, cacheCreation: 500, cacheRead, output: 20 });
  const wires: WireRecord[] = [
    wire({ t: '2026-01-01T10:01:00.000Z', fullness: 0.72, usage: usage(14_000) }, KEY_C),
    rewritten('2026-01-01T10:02:00.000Z', 1, 1, 31_492, { latched: 1, usage: usage(1_000), ...SHED_BYTES }, KEY_C),
    rewritten('2026-01-01T10:03:00.000Z', 1, 1, 31_492, { usage: usage(2_000), ...SHED_BYTES }, KEY_C),
    rewritten('2026-01-01T10:04:00.000Z', 2, 2, 51_492, { latched: 2, usage: usage(9_000), ...SHED_BYTES }, KEY_C),
  ];
  for (const r of wires) addWireEntry(tally, { kind: 'record', record: r });
  const all = [...records, shed];
  return { tally, records: all, summaries: summarizeConversations(tally, all) };
}
