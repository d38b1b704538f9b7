/**
 * The record bench: reading a conversation record (`parseConversationRecord`: the upgrade of a
 * version 1 record, then the check of every epoch by its kind's check) against `JSON.parse` of the
 * same text, measured interleaved in the same run. The check runs each time a latch writes a record
 * and each time the proxy reads one back, so it must stay one pass over the epochs: the ratio to
 * `JSON.parse` should not grow with the number of epochs.
 */
import { parseConversationRecord } from '../../src/state/conversation-record.js';
import { formatTable, measureInterleaved, ms } from './measure.js';

const SHAPES: readonly (readonly [number, number])[] = [
  [10, 100],
  [50, 100],
  [200, 50],
];

/** Prints one row per record shape: epochs x blocks, the medians and the ratios. */
export function runRecordBench(): void {
  const rows = SHAPES.map(([epochs, blocks]) => {
    const v2 = JSON.stringify(recordOf(epochs, blocks, 2));
    const v1 = JSON.stringify(recordOf(epochs, blocks, 1));
    const [parse, read, upgrade] = measureInterleaved(
      [
        { name: 'JSON.parse', run: () => JSON.parse(v2) },
        { name: 'read v2', run: () => parseConversationRecord(v2, 'k'.repeat(64), 'bench') },
        { name: 'read v1', run: () => parseConversationRecord(v1, 'k'.repeat(64), 'bench') },
      ],
      { warmupRounds: 3, minRounds: 9, maxRounds: 60, budgetMs: 4000 },
    );
    return [
      `${epochs} x ${blocks}`,
      ms(parse!.median),
      ms(read!.median),
      ms(upgrade!.median),
      `${(read!.median / parse!.median).toFixed(1)}x`,
      `${(upgrade!.median / parse!.median).toFixed(1)}x`,
    ];
  });
  console.log('record bench: reading a conversation record, medians, against JSON.parse of the same text (same run)');
  console.log(formatTable(['epochs x blocks', 'JSON.parse', 'read v2', 'read v1', 'v2 / parse', 'v1 / parse'], rows));
}

function recordOf(epochs: number, blocks: number, version: 1 | 2): object {
  const sha = (i: number): string => i.toString(16).padStart(64, '0');
  const epoch = (e: number): object => {
    const list = Array.from({ length: blocks }, (_, b) => ({
      ordinal: e * blocks + b,
      toolUseId: `toolu_${e * blocks + b}`,
      bytes: 4000,
      sha256: sha(e * blocks + b + 1),
      jsonBytes: 4100,
      jsonSha256: sha(1),
    }));
    const head = {
      n: e + 1,
      latchedAt: '2026-01-01T00:00:00.000Z',
      trigger: 'threshold',
      reason: { fullness: 0.8, threshold: 0.7, window: 200_000, contextTokens: 160_000 },
      policy: { name: 'elide-old-tool-results', version: 2, keepRecent: 6, minBytes: 1024 },
    };
    return version === 1 ? { ...head, blocks: list } : { ...head, kind: 'tool_results', items: { tool_results: list } };
  };
  return {
    format: `ctxshed.conversation/${version}`,
    key: 'k'.repeat(64),
    agentId: null,
    firstPrompt: 'bench',
    model: 'claude-sonnet-4-5',
    createdAt: '2026-01-01T00:00:00.000Z',
    epochs: Array.from({ length: epochs }, (_, e) => epoch(e)),
  };
}
