import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../cli/cli-run.js';
import { readSession } from '../../src/replay/read-sessions.js';
import { billOf } from '../../src/replay/recorded-bill.js';
import { rebuildConversations } from '../../src/replay/rebuild-conversations.js';
import { renderTable } from '../../src/replay/render-table.js';
import { replaySession, replayWholeSession } from '../../src/replay/replay-session.js';
import { markEstimated, stitchTranscript } from '../../src/replay/stitch-transcript.js';
import { withWholeSession } from '../../src/replay/whole-session-figures.js';
import { assistant, line, user } from './fixtures.js';

/** The shared sessions (test/fixtures/sessions, MIT: see its SOURCES.md). */
const SESSIONS = path.join(REPO_ROOT, 'test', 'fixtures', 'sessions');

/**
 * USD per million tokens as Anthropic's pricing page gives them, written here apart from
 * core/price-table.ts: input, output, 5-minute cache write, 1-hour cache write, cache read.
 */
const PRICES: ReadonlyArray<readonly [string, readonly [number, number, number, number, number]]> = [
  ['claude-opus-4-6', [5, 25, 6.25, 10, 0.5]],
  ['claude-sonnet-4-5', [3, 15, 3.75, 6, 0.3]],
  ['claude-haiku-4-5', [1, 5, 1.25, 2, 0.1]],
];

/**
 * The bill of a session's files, computed from their raw lines alone: each assistant message id
 * once, with the usage of its last record (the client writes one record per content block; the
 * last carries the final output count), priced by the table above.
 */
function independentBill(files: readonly string[]): number {
  let usd = 0;
  for (const file of files) {
    const last = new Map<string, { model: string; usage: Record<string, unknown> }>();
    for (const text of fs.readFileSync(file, 'utf8').split('\n')) {
      if (text.trim() === '') continue;
      const record = JSON.parse(text) as { type?: string; message?: { id?: string; model?: string; usage?: Record<string, unknown> } };
      const m = record.message;
      if (record.type !== 'assistant' || m?.id === undefined || m.model === undefined || m.usage === undefined || m.model === '<synthetic>') continue;
      last.set(m.id, { model: m.model, usage: m.usage });
    }
    for (const { model, usage } of last.values()) {
      const price = PRICES.find(([prefix]) => model.startsWith(prefix))?.[1];
      if (price === undefined) throw new Error(`no price written for ${model}`);
      const n = (k: string): number => (typeof usage[k] === 'number' ? (usage[k] as number) : 0);
      const oneHour = (usage['cache_creation'] as Record<string, number> | undefined)?.['ephemeral_1h_input_tokens'] ?? 0;
      const [input, output, write5m, write1h, read] = price;
      usd +=
        (input * n('input_tokens') +
          output * n('output_tokens') +
          write5m * (n('cache_creation_input_tokens') - oneHour) +
          write1h * oneHour +
          read * n('cache_read_input_tokens')) /
        1e6;
    }
  }
  return usd;
}

describe('billOf', () => {
  for (const name of ['258c7280-ae70-4798-800f-63464d01a85d', 'ae4a77f8-aedd-4bc1-888f-c94edc91af04']) {
    it(`should bill ${name.slice(0, 8)} as its usage, priced apart from the code, says: main thread, subagents and compaction call`, async () => {
      // Arrange
      const file = path.join(SESSIONS, `${name}.jsonl`);
      const subagents = path.join(SESSIONS, name, 'subagents');
      const files = [file, ...fs.readdirSync(subagents).map((f) => path.join(subagents, f))];

      // Act
      const bill = billOf((await readSession(file)).conversations);

      // Assert
      expect(bill.costUsd).toBeCloseTo(independentBill(files), 3);
      expect(bill.parts.compactionCalls.requests).toBe(1);
      expect(bill.parts.subagents.requests).toBe(3);
      expect(bill.unpricedModels).toEqual([]);
    });
  }
});

describe('what was paid, with a model the price table does not know', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'recorded-bill-'));
  });
  afterEach(async () => {
    await fsp.rm(dir, { recursive: true, force: true });
  });

  /** A session that compacted once, its compaction call on a model the table does not know. */
  function session(): string[] {
    const at = (s: number): string => new Date(Date.parse('2026-02-10T22:58:00.000Z') + s * 1000).toISOString();
    const usage = { input_tokens: 7, cache_read_input_tokens: 9_000, cache_creation_input_tokens: 1_234, output_tokens: 2_500 };
    return [
      user('first'),
      assistant('msg_1', { type: 'text', text: 'a'.repeat(4000) }, {}, at(1)),
      line({ type: 'user', uuid: 'u-last', timestamp: at(2), message: { role: 'user', content: 'second' } }),
      line({ type: 'user', isSidechain: true, agentId: 'acompact-1', uuid: 'c1', timestamp: at(3), message: { role: 'user', content: 'summarise' } }),
      line({
        type: 'assistant',
        isSidechain: true,
        agentId: 'acompact-1',
        parentUuid: 'c1',
        timestamp: at(4),
        message: { model: 'claude-opus-9-9', id: 'msg_c', role: 'assistant', content: [{ type: 'text', text: 'summary' }], usage },
      }),
      line({ type: 'system', subtype: 'compact_boundary', uuid: 'b', timestamp: at(5), logicalParentUuid: 'u-last', compactMetadata: { trigger: 'auto' } }),
      line({ type: 'user', uuid: 's', parentUuid: 'b', timestamp: at(5), isCompactSummary: true, message: { role: 'user', content: 'summary' } }),
      assistant('msg_2', { type: 'text', text: 'b' }, {}, at(6)),
    ];
  }

  it('should never bill the unknown compaction call as $0 in silence: the paid figure and the modelled baseline are floors that name it', async () => {
    // Arrange
    const lines = session();
    const stitch = stitchTranscript(lines);
    const options = (n: string) => ({
      settings: { threshold: 0.7, keepRecent: 6, minBytes: 1024, deep: 'none' as const },
      stateDir: path.join(dir, n),
      shedStateDir: path.join(dir, `${n}-shed`),
    });

    // Act
    const report = await replaySession('x.jsonl', rebuildConversations(lines, 'x.jsonl'), options('a'));
    const whole = await replayWholeSession(
      'x.jsonl',
      markEstimated(rebuildConversations(stitch.lines, 'x.jsonl'), stitch.boundaries),
      options('b'),
      report.compactionPoint,
    );
    const figures = withWholeSession(report, whole, { compactions: 1, estimated: 1 });
    const text = renderTable([figures], { width: 400, compact: false });

    // Assert: the strategies priced no request on it; what was paid and the baseline did
    expect(report.unpricedModels).toEqual([]);
    expect(report.paid?.unpricedModels).toEqual(['claude-opus-9-9']);
    expect(report.paid?.unpricedRequests).toBe(1);
    expect(report.recordedWithCompaction?.unpricedModels).toEqual(['claude-opus-9-9']);
    expect(text).toMatch(/paid >=\$\d+\.\d\d \(no price: claude-opus-9-9\)/);
    expect(text).toMatch(/the recorded session with its compaction >=\$\d+\.\d\d \(no price: claude-opus-9-9\)/);
    expect(text).toMatch(/recorded \$ .*\n.* >=\d+\.\d\d \(no price: claude-opus-9-9\)/);
  });
});
