import fs from 'node:fs/promises';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, runCli } from '../cli/cli-run.js';
import { fixturePath } from './fixtures.js';

/** The real transcripts beside the clone (CI puts ../shared there; CTXSHED_SHARED points elsewhere). */
const SHARED_TRANSCRIPTS = path.join(process.env['CTXSHED_SHARED'] ?? path.join(REPO_ROOT, '..', 'shared'), 'transcripts');
const LONG_SESSIONS = ['258c7280-ae70-4798-800f-63464d01a85d.jsonl', 'ae4a77f8-aedd-4bc1-888f-c94edc91af04.jsonl'];

let dir: string;
beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'replay-command-'));
});
afterAll(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

describe('replayCommand', () => {
  it('should print the documented JSON shape and write the page', async () => {
    // Arrange
    const page = path.join(dir, 'replay.html');

    // Act
    const result = await runCli(['replay', fixturePath('subagent.jsonl'), fixturePath('tool_heavy.jsonl'), '--window', '60000', '--keep-recent', '2', '--json', '--html', page]);

    // Assert
    expect(result.code).toBe(0);
    const out = JSON.parse(result.stdout) as { sessions: Array<Record<string, unknown>> };
    expect(out.sessions).toHaveLength(2);
    const [session] = out.sessions as Array<{
      file: string; requests: number; calibration: Record<string, number>; strategies: Record<string, Record<string, number>>;
      shedEpochs: Array<Record<string, Record<string, unknown>>>; shedHeld: Record<string, unknown>;
    }>;
    expect(session?.file).toBe(fixturePath('subagent.jsonl'));
    expect(session?.requests).toBe(12);
    expect(typeof session?.calibration['cacheReadError']).toBe('number');
    expect(typeof session?.calibration['cacheWriteError']).toBe('number');
    expect(Object.keys(session?.strategies ?? {})).toEqual(['recorded', 'rescue', 'shed', 'perRequest', 'clearToolUses']);
    for (const s of Object.values(session?.strategies ?? {})) {
      for (const key of ['peakFullness', 'cacheReadTokens', 'cacheWriteTokens', 'uncachedTokens', 'costUsd', 'epochs']) expect(typeof s[key]).toBe('number');
    }
    expect(session?.strategies['rescue']?.['epochs']).toBe(1);
    expect(session?.strategies['shed']?.['epochs']).toBe(1);
    expect(session?.strategies['shed']?.['bytesShed']).toBeNull();
    expect(session?.strategies['shed']?.['finalBytesSaved']).toBeNull();
    expect(session?.shedEpochs).toHaveLength(1);
    expect(session?.shedEpochs[0]?.['perLaterTurn']?.['basis']).toBe('cache_read_marginal');
    expect(session?.shedEpochs[0]?.['rewrite']?.['basis']).toBe('cache_write');
    expect(Object.keys(session?.shedHeld ?? {})).toContain('requests');
    expect(await fs.readFile(page, 'utf8')).toContain('<svg class="chart"');
  });

  it('should print a table with a sparkline per strategy', async () => {
    // Act
    const result = await runCli(['replay', fixturePath('tool_heavy.jsonl')]);

    // Assert
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/ctxshed rescue .*[▁▂▃▄▅▆▇█]/);
  });

  it('should pass --horizon to shed mode: no turns left, no shed epoch', async () => {
    // Act
    const result = await runCli(['replay', fixturePath('subagent.jsonl'), '--window', '60000', '--horizon', '0', '--json']);

    // Assert
    expect(result.code).toBe(0);
    const [session] = (JSON.parse(result.stdout) as { sessions: Array<{ strategies: Record<string, Record<string, number>>; shedHeld: { requests: Record<string, number> } }> }).sessions;
    expect(session?.strategies['shed']?.['epochs']).toBe(0);
    expect(session?.shedHeld.requests['gate']).toBeGreaterThan(0);
  });

  it('should refuse a bad --horizon with exit 2', async () => {
    // Act
    const result = await runCli(['replay', fixturePath('short.jsonl'), '--horizon', '-1']);

    // Assert
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--horizon');
  });

  it('should refuse a bad --rescue-pct with exit 2', async () => {
    // Act
    const result = await runCli(['replay', fixturePath('short.jsonl'), '--rescue-pct', '0']);

    // Assert
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--rescue-pct');
  });

  it.skipIf(!existsSync(SHARED_TRANSCRIPTS))('should give the shed and rescue figures docs/shed.md quotes for the long shared transcripts', async () => {
    // Act
    const result = await runCli(['replay', ...LONG_SESSIONS.map((f) => path.join(SHARED_TRANSCRIPTS, f)), '--json']);

    // Assert: peak / fullness at the recorded compaction / cost / epochs, as the docs' table has them
    type Summary = { peakFullness: number; atCompaction: number[]; costUsd: number; epochs: number };
    const sessions = (JSON.parse(result.stdout) as { sessions: Array<{ strategies: Record<string, Summary>; shedEpochs: Array<{ payback: { paidBack: boolean } }> }> }).sessions;
    const row = (s: Summary): string => `${Math.round(s.peakFullness * 100)}% / ${s.atCompaction.map((f) => `${Math.round(f * 100)}%`).join(' ')} / $${s.costUsd.toFixed(2)} / ${s.epochs}`;
    expect(sessions.map((s) => ['recorded', 'rescue', 'shed'].map((k) => row(s.strategies[k]!)))).toEqual([
      ['83% / 83% / $10.71 / 0', '71% / 49% / $9.86 / 1', '71% / 34% / $8.98 / 1'],
      ['67% / 67% / $6.19 / 0', '67% / 50% / $6.26 / 1', '67% / 26% / $6.20 / 1'],
    ]);
    expect(sessions.map((s) => s.shedEpochs.map((e) => e.payback.paidBack))).toEqual([[true], [false]]);
  });
});

if (!existsSync(SHARED_TRANSCRIPTS)) {
  // Say so plainly: the figures in docs/shed.md come from ../shared/transcripts.
  process.stderr.write(`test/replay/replay-command.test.ts: ${SHARED_TRANSCRIPTS} is absent; the check of the documented shed figures is skipped\n`);
}
