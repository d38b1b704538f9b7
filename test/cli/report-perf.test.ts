/**
 * `stats` and `status` over a wire log of a long day: 20,000 requests in 5 conversations.
 * Prints how long each takes (no timing is asserted: machines differ); checks the totals.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Epoch } from '../../src/core/epoch-types.js';
import type { WireRecord } from '../../src/state/wire-record.js';
import { summarizeConversations } from '../../src/report/conversation-summary.js';
import { readRecordsForReport } from '../../src/report/read-report-state.js';
import { readWireTally } from '../../src/report/read-wire-log.js';
import { buildStatsReport, type StatsReport } from '../../src/report/stats-report.js';
import { serializeConversationRecord } from '../../src/state/conversation-record.js';
import { layoutPaths } from '../../src/state/layout.js';
import { WIRE_TORN_MARKER } from '../../src/state/wire-log.js';
import { tempStateDir } from '../support/test-proxy.js';
import { runCli } from './cli-run.js';

const CONVERSATIONS = 5;
const REQUESTS_EACH = 4000;
const LATCH_EVERY = 1000;
const BLOCKS_PER_EPOCH = 8;
const BLOCK_BYTES = 3000;

let dir: string;
let expectedShed = 0;
beforeAll(async () => {
  dir = await tempStateDir('ctxshed-perf-');
  const state = layoutPaths(dir);
  await fs.mkdir(state.conversationsDir);
  const start = Date.parse('2026-01-01T08:00:00.000Z');
  const lines: string[] = [];
  for (let i = 0; i < REQUESTS_EACH; i++) {
    for (let c = 0; c < CONVERSATIONS; c++) {
      const epochs = Math.floor(i / LATCH_EVERY);
      const bytesElided = epochs * BLOCKS_PER_EPOCH * BLOCK_BYTES;
      const record: WireRecord = {
        t: new Date(start + (i * CONVERSATIONS + c) * 1500).toISOString(),
        method: 'POST',
        path: '/v1/messages',
        route: 'messages',
        key: keyOf(c),
        model: 'claude-sonnet-4-5-20250929',
        status: 200,
        bytesIn: 60_000 + i * 40,
        bytesOut: 60_000 + i * 40 - bytesElided + epochs * BLOCKS_PER_EPOCH * 270,
        responseBytes: 900,
        rescued: epochs * BLOCKS_PER_EPOCH,
        bytesElided,
        epochs,
        ...(epochs === 0 ? { reason: 'no_epoch' as const } : {}),
        ...(epochs > 0 && i % LATCH_EVERY === 0 ? { latched: epochs } : {}),
        usage: { input: 3, cacheCreation: 400, cacheRead: 14_000 + i * 10, output: 120 },
        window: 200_000,
        fullness: 0.3 + (i % LATCH_EVERY) / 2500,
        ms: { total: 1200, prepare: 2.1, headers: 800 },
      };
      lines.push(JSON.stringify(record));
    }
    if (i % 1000 === 500) lines.push(JSON.stringify({ t: '2026-01-01T09:00:00.000Z', note: 'state_unavailable', detail: 'ENOSPC' }));
    if (i % 1000 === 501) lines.push(JSON.stringify({ t: '2026-01-01T09:00:01.000Z', note: 'state_recovered', detail: 'ok' }));
  }
  lines.push(JSON.stringify({ t: '2026-01-01T23:00:00.000Z', note: 'state_unavailable', detail: 'EACCES' }));
  lines.push('{"t":"2026-01-01T10:00:00.000Z","method":"PO', JSON.stringify(WIRE_TORN_MARKER));
  await fs.writeFile(state.wirePath, `${lines.join('\n')}\n{"t":"2026-01-01T23:59:59.000Z","meth`);
  for (let c = 0; c < CONVERSATIONS; c++) {
    const epochs: Epoch[] = Array.from({ length: REQUESTS_EACH / LATCH_EVERY - 1 }, (_, e) => ({
      n: e + 1,
      latchedAt: new Date(start + ((e + 1) * LATCH_EVERY * CONVERSATIONS + c) * 1500).toISOString(),
      reason: { fullness: 0.71, threshold: 0.7, window: 200_000, contextTokens: 142_000 },
      policy: { name: 'elide-old-tool-results', version: 1, keepRecent: 6, minBytes: 1024 },
      kind: 'tool_results',
      items: {
        tool_results: Array.from({ length: BLOCKS_PER_EPOCH }, (_, b) => ({
          ordinal: e * BLOCKS_PER_EPOCH + b,
          toolUseId: `toolu_${c}_${e}_${b}`,
          bytes: BLOCK_BYTES,
          sha256: (c * 100 + e * 10 + b).toString(16).padStart(64, '0'),
          jsonBytes: BLOCK_BYTES + 40,
          jsonSha256: 'f'.repeat(64),
        })),
      },
    }));
    expectedShed += epochs.length * BLOCKS_PER_EPOCH * BLOCK_BYTES;
    const rec = {
      format: 'ctxshed.conversation/2' as const,
      key: keyOf(c),
      agentId: null,
      firstPrompt: `Task ${c}`,
      model: 'claude-sonnet-4-5',
      createdAt: epochs[0]!.latchedAt,
      epochs,
    };
    await fs.writeFile(path.join(state.conversationsDir, `${keyOf(c)}.json`), serializeConversationRecord(rec));
  }
});
afterAll(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

function keyOf(c: number): string {
  return String(c + 1).repeat(64);
}

describe('stats and status on a long wire log', () => {
  it('should total 20,000 requests correctly and print how long reading them takes', async () => {
    const { size } = await fs.stat(path.join(dir, 'wire.jsonl'));
    const state = layoutPaths(dir);

    const inProcessStart = performance.now();
    const tally = await readWireTally(state.wirePath);
    const { records } = await readRecordsForReport(state);
    const report = buildStatsReport(tally, summarizeConversations(tally, records));
    const inProcessMs = performance.now() - inProcessStart;

    const statsStart = performance.now();
    const stats = await runCli(['stats', '--state', dir, '--json']);
    const statsMs = performance.now() - statsStart;
    const statusStart = performance.now();
    const status = await runCli(['status', '--state', dir]);
    const statusMs = performance.now() - statusStart;
    const lsStart = performance.now();
    const ls = await runCli(['ls', '--state', dir]);
    const lsMs = performance.now() - lsStart;

    console.log(
      `report-perf: wire.jsonl of ${tally.lines.toLocaleString('en-US')} lines (${(size / 1024 / 1024).toFixed(1)} MB): ` +
        `read+fold+stats in-process ${inProcessMs.toFixed(0)} ms; as processes (Node start included): ` +
        `stats --json ${statsMs.toFixed(0)} ms, status ${statusMs.toFixed(0)} ms, ls ${lsMs.toFixed(0)} ms`,
    );
    expect([stats.code, status.code, ls.code]).toEqual([0, 0, 0]);
    const fromCli = JSON.parse(stats.stdout) as StatsReport;
    for (const r of [report, fromCli]) {
      expect(r.overall.requests).toBe(CONVERSATIONS * REQUESTS_EACH);
      expect(r.overall.passthrough).toEqual({ no_epoch: CONVERSATIONS * LATCH_EVERY });
      expect(r.overall.epochs).toBe(CONVERSATIONS * 3);
      expect(r.overall.bytesElided).toBe(expectedShed);
      expect(r.wire).toMatchObject({ notes: 9, tornMarkers: 1, unreadable: 1 });
    }
    expect(status.stdout).toContain('the proxy could not use the state directory');
  });
});
