import fs from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StatsReport } from '../../src/report/stats-report.js';
import { listConversations } from '../../src/state/read-conversation.js';
import { layoutPaths } from '../../src/state/layout.js';
import { readWire } from '../support/test-proxy.js';
import { runCli, STATE_EXAMPLE, widest } from './cli-run.js';
import { makeSessionState, type SessionState } from './session-state.js';
import { blocksOf } from '../../src/core/epoch-items.js';

let session: SessionState;
beforeAll(async () => {
  session = await makeSessionState();
});
afterAll(async () => {
  await fs.rm(session.dir, { recursive: true, force: true });
});

type StatsJson = StatsReport & { state: string; warnings: string[] };

async function statsOf(dir: string): Promise<StatsJson> {
  const result = await runCli(['stats', '--state', dir, '--json']);
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout) as StatsJson;
}

describe('ctxshed stats', () => {
  it('should total the example: requests, pass-throughs by reason, and the shed counted once', async () => {
    const report = await statsOf(STATE_EXAMPLE);

    expect(report.overall).toMatchObject({
      requests: 24 + 16,
      rewritten: 7 + 2,
      passedThrough: 17 + 14,
      passthrough: { no_epoch: 17 + 14 },
      errors: 0,
      epochs: 2,
      blocksElided: 11,
      // 7 requests carried the same 18,864 bytes of stubs: the shed is 18,864, not 7 times it.
      bytesElided: 18_864,
      // Rescue's means, over the rescue conversation's requests: the shed one's are its own.
      perRequest: { meanBytesElided: 18_864, meanBytesSaved: 16_482 },
      perEpoch: { meanBytesElided: 18_864 },
      shed: { epochs: 1, spans: 1, messages: 16 },
    });
    expect(report.wire).toMatchObject({ lines: 40, records: 40, unreadable: 0 });
    const conversation = report.conversations.find((c) => c.key.startsWith('cbf84ec36c85'));
    expect(conversation!.epochs).toEqual([expect.objectContaining({ n: 1, mode: 'rescue', blocks: 11, bytes: 18_864, source: 'record', span: null })]);
    expect(conversation!.totals.tokensElided).toBe(Math.round(18_864 * conversation!.tokensPerByte));
  });

  it("should give the example's shed epoch its span and per-turn price with its basis, apart from rescue's blocks", async () => {
    const report = await statsOf(STATE_EXAMPLE);

    const shed = report.conversations.find((c) => c.key.startsWith('145a183e78ba'))!;
    expect(shed).toMatchObject({ mode: 'shed', totals: { epochs: 1, blocksElided: 0, bytesElided: 0, shed: { epochs: 1, spans: 1, messages: 16 } } });
    expect(shed.epochs).toEqual([expect.objectContaining({ n: 1, mode: 'shed', blocks: 0, bytes: 0 })]);
    // The gate's 17,870 dropped tokens were all warm (the call before read more from the cache).
    expect(shed.epochs[0]!.span).toEqual({
      first: 1,
      last: 16,
      messages: 16,
      bytes: 71_975,
      tokens: 17_996,
      sha256: 'a79312205cab6d49906a10d19e1296195e9e49b6f0f8495a2da9ff234974e6a1',
      pins: 0,
      tombstone: false,
      restores: 0,
      perTurn: { shedTokens: 17_870, warmTokens: 17_870, coldTokens: 0, inputTokenEquivalent: 1_787, basis: 'cache_read_marginal', per: 'epoch' },
    });
  });

  it('should print the example as text that fits 100 columns', async () => {
    const result = await runCli(['stats', '--state', STATE_EXAMPLE], { env: { ...process.env, COLUMNS: '100' } });

    expect(result.stdout).toMatch(/passed through +31: no_epoch 31/);
    expect(result.stdout).toMatch(/elided in total +18\.4 KiB, ~[\d.]+k tokens \(each epoch's shed counted once\)/);
    expect(result.stdout).toMatch(/\nshed +1 span, 16 messages in 1 shed epoch \(each one's figures below, never summed\)\n/);
    expect(result.stdout).toMatch(/\n145a183e78ba +1 +71\.3% +16 \(1\.\.16\) +70\.3 KiB +~18k +~1\.8k +cache_read_marginal\n/);
    expect(result.stdout).toMatch(/\nno_epoch +31 +The conversation has no epoch yet/);
    expect(widest(result.stdout)).toBeLessThanOrEqual(100);
  });

  it("should agree with a recorded session's wire log and records, counted independently", async () => {
    const report = await statsOf(session.dir);

    const wire = await readWire(session.dir);
    const records = await listConversations(layoutPaths(session.dir));
    const reasons: Record<string, number> = {};
    for (const r of wire) if (typeof r['reason'] === 'string') reasons[r['reason']] = (reasons[r['reason']] ?? 0) + 1;
    const shed = records.flatMap((r) => r.epochs.flatMap((e) => blocksOf(e))).reduce((n, b) => n + b.bytes, 0);
    const summedOverRequests = wire.reduce((n, r) => n + Number(r['bytesElided']), 0);
    expect(report.overall.requests).toBe(session.requests);
    expect(report.overall.requests).toBe(wire.length);
    expect(report.overall.passthrough).toEqual(reasons);
    expect(report.overall.rewritten).toBe(wire.filter((r) => r['reason'] === undefined).length);
    expect(report.overall.epochs).toBe(records.reduce((n, r) => n + r.epochs.length, 0));
    expect(report.overall.bytesElided).toBe(shed);
    expect(summedOverRequests).toBeGreaterThan(3 * shed);
    expect(report.unkeyed).toMatchObject({ requests: 1, passthrough: { not_a_model_call: 1 } });
    expect(report.conversations).toHaveLength(2);
  });

  it('should print the session as text with a line per epoch', async () => {
    const result = await runCli(['stats', '--state', session.dir], { env: { ...process.env, COLUMNS: '100' } });
    const report = await statsOf(session.dir);

    const epochLines = result.stdout.split('Per epoch')[1]!.split('\n\n')[0]!.split('\n').slice(2);
    expect(epochLines).toHaveLength(report.overall.epochs);
    expect(result.stdout).toContain('(1 in no conversation, 1 side call (count_tokens))');
    expect(widest(result.stdout)).toBeLessThanOrEqual(100);
  });
});
