/** A folded session of two conversations, for the render tests. */
import type { WireRecord } from '../../src/state/wire-record.js';
import { summarizeConversations, type ConversationSummary } from '../../src/report/conversation-summary.js';
import { addWireEntry, newWireTally, type WireTally } from '../../src/report/wire-tally.js';
import type { ConversationRecord } from '../../src/state/conversation-record.js';
import { block, epoch, KEY_A, KEY_B, record, rewritten, wire } from './report-fixtures.js';

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
      refaulted: [{ epoch: 1, ordinal: 0, via: 'read' }, { epoch: 1, ordinal: 1, via: 'bash' }],
    }),
    wire({ t: '2026-01-01T10:06:00.000Z', reason: 'epoch_mismatch', epochs: 2, fullness: 0.55, refaults: 1, refaulted: [{ epoch: 1, ordinal: 0, via: 'restore' }] }),
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
