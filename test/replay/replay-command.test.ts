import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, runCli } from '../cli/cli-run.js';
import { fixturePath } from './fixtures.js';

/** The shared transcripts (docs/economics.md, "Results on the shared transcripts"), kept in the repository with their license. */
const SHARED_TRANSCRIPTS = path.join(REPO_ROOT, 'test', 'fixtures', 'sessions');
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
    const result = await runCli([
      'replay',
      fixturePath('subagent.jsonl'),
      fixturePath('tool_heavy.jsonl'),
      '--window',
      '60000',
      '--keep-recent',
      '2',
      '--json',
      '--html',
      page,
    ]);

    // Assert
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(`wrote the page to ${page}`);
    const out = JSON.parse(result.stdout) as { sessions: Array<Record<string, unknown>> };
    expect(out.sessions).toHaveLength(2);
    const [session] = out.sessions as Array<{
      file: string;
      requests: number;
      calibration: Record<string, number>;
      strategies: Record<string, Record<string, number>>;
      shedEpochs: Array<Record<string, Record<string, unknown>>>;
      shedHeld: Record<string, unknown>;
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

  it('should latch at a 1M window from --rescue-tokens, and not at all with --rescue-tokens 0', async () => {
    // Act: the subagent session peaks near 40,000 tokens, 4% of a 1M window.
    const run = async (tokens: string): Promise<{ tokenThreshold?: number; strategies: Record<string, { epochs: number }> }> => {
      const result = await runCli(['replay', fixturePath('subagent.jsonl'), '--window', '1000000', '--rescue-tokens', tokens, '--json']);
      expect(result.code).toBe(0);
      return (JSON.parse(result.stdout) as { sessions: Array<{ tokenThreshold?: number; strategies: Record<string, { epochs: number }> }> }).sessions[0]!;
    };
    const [low, off] = [await run('20000'), await run('0')];

    // Assert
    expect(low.tokenThreshold).toBe(20_000);
    expect(low.strategies['rescue']?.epochs).toBeGreaterThan(0);
    expect(off.tokenThreshold).toBeUndefined();
    expect(off.strategies['rescue']?.epochs).toBe(0);
    expect(off.strategies['shed']?.epochs).toBe(0);
  });

  it('should refuse a --rescue-tokens that is no whole number', async () => {
    const result = await runCli(['replay', fixturePath('subagent.jsonl'), '--rescue-tokens', '-5']);

    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--rescue-tokens takes a whole number of tokens >= 0, not -5');
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
    const [session] = (
      JSON.parse(result.stdout) as { sessions: Array<{ strategies: Record<string, Record<string, number>>; shedHeld: { requests: Record<string, number> } }> }
    ).sessions;
    expect(session?.strategies['shed']?.['epochs']).toBe(0);
    expect(session?.shedHeld.requests['gate']).toBeGreaterThan(0);
  });

  it('should end the runway where CLAUDE_CODE_AUTO_COMPACT_WINDOW has the client compact', async () => {
    // Act
    const env = { ...process.env, CLAUDE_CODE_AUTO_COMPACT_WINDOW: '400k' };
    const result = await runCli(['replay', fixturePath('short.jsonl'), '--window', '1000000', '--json'], { env });

    // Assert: 400,000 less the rule's 33,000, not 1,000,000 less it
    expect(result.code).toBe(0);
    const [session] = (JSON.parse(result.stdout) as { sessions: Array<{ compactionPoint: { tokens: number; autoCompactWindow?: number } }> }).sessions;
    expect(session?.compactionPoint).toMatchObject({ tokens: 367_000, autoCompactWindow: 400_000 });
  });

  it('should refuse a bad --horizon with exit 2', async () => {
    // Act
    const result = await runCli(['replay', fixturePath('short.jsonl'), '--horizon', '-1']);

    // Assert
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--horizon');
  });

  it('should print the figures table at the windows given, with the command that made it', async () => {
    // Act
    const result = await runCli(['replay', '--figures', fixturePath('subagent.jsonl'), '--figure-windows', '200000', '60000']);

    // Assert: a row per window and strategy shown, the goals on shed's rows
    expect(result.code).toBe(0);
    const lines = result.stdout.split('\n');
    expect(lines[0]).toBe(
      'Made by `ctxshed replay --figures subagent.jsonl --figure-windows 200000 60000`; cost up to the first compaction, none after it (every strategy).',
    );
    expect(lines.filter((l) => l.startsWith('| subagent'))).toHaveLength(6);
    expect(lines.filter((l) => l.startsWith('| subagent | 60k | shed |'))).toHaveLength(1);
    expect(result.stdout).toContain("compaction point by Claude Code's rule (window − 33,000), an assumption");
  });

  it('should refuse --figures with --json as a usage error', async () => {
    // Act
    const result = await runCli(['replay', '--figures', '--json', fixturePath('short.jsonl')]);

    // Assert
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--figures');
  });

  it('should refuse a bad --rescue-pct with exit 2', async () => {
    // Act
    const result = await runCli(['replay', fixturePath('short.jsonl'), '--rescue-pct', '0']);

    // Assert
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--rescue-pct');
  });

  it('should give the shed and rescue figures docs/shed.md quotes for the long shared transcripts', async () => {
    // Act
    // Each session is replayed twice (up to its first compaction, and whole): minutes on a busy machine.
    // At the levers these tables were measured with, before issue 40 chose each mode's defaults (docs/economics.md).
    const before40 = ['--rescue-pct', '70', '--keep-recent', '6', '--deep', 'none'];
    const result = await runCli(['replay', ...LONG_SESSIONS.map((f) => path.join(SHARED_TRANSCRIPTS, f)), ...before40, '--json'], { timeoutMs: 280_000 });

    // Assert: peak / fullness at the recorded compaction / cost / epochs, as the docs' table has them
    type Summary = { peakFullness: number; atCompaction: number[]; costUsd: number; epochs: number };
    const sessions = (
      JSON.parse(result.stdout) as { sessions: Array<{ strategies: Record<string, Summary>; shedEpochs: Array<{ payback: { paidBack: boolean } }> }> }
    ).sessions;
    const row = (s: Summary): string =>
      `${Math.round(s.peakFullness * 100)}% / ${s.atCompaction.map((f) => `${Math.round(f * 100)}%`).join(' ')} / $${s.costUsd.toFixed(1)} / ${s.epochs}`;
    expect(sessions.map((s) => ['recorded', 'rescue', 'shed'].map((k) => row(s.strategies[k]!)))).toEqual([
      // Costs to ten cents. Rescue's stubs name the elided files under the replay's temporary state
      // directory, so their bytes follow TMPDIR's length: under the tests' temporary root (longer than
      // /tmp) ae4a77f8's rescue stands at 54% where a run from /tmp reads 53% (docs/economics.md).
      ['83% / 83% / $8.0 / 0', '70% / 49% / $7.2 / 1', '70% / 27% / $5.9 / 1'],
      ['71% / 71% / $1.6 / 0', '71% / 54% / $1.7 / 1', '71% / 24% / $1.6 / 1'],
    ]);
    expect(sessions.map((s) => s.shedEpochs.map((e) => e.payback.paidBack))).toEqual([[true], [false]]);
    // The whole session (docs/economics.md): cost against what the user paid, cache writes against its, the runway a floor.
    // Within 2 points and 0.05x: rescue's stubs, and so its cost, follow the length of TMPDIR (above).
    type Whole = {
      wholeSession: { vs: { recordedWithCompaction: number }; cacheWriteRatio: number; runway: { requests: number; ratio: number | null; measured: boolean } };
    };
    const wholeSessions = sessions as unknown as Array<{ strategies: Record<string, Whole> }>;
    const expected: Array<[number, string, number, number, number]> = [
      [0, 'rescue', 0.051, 1.17, 152],
      [0, 'shed', -0.176, 0.97, 152],
      [1, 'rescue', 0.454, 1.44, 217],
      [1, 'shed', -0.086, 0.8, 217],
    ];
    for (const [i, name, vsPaid, writes, floor] of expected) {
      const w = wholeSessions[i]?.strategies[name]?.wholeSession;
      expect(Math.abs((w?.vs.recordedWithCompaction ?? Number.NaN) - vsPaid)).toBeLessThanOrEqual(0.02);
      expect(Math.abs((w?.cacheWriteRatio ?? Number.NaN) - writes)).toBeLessThanOrEqual(0.05);
      expect(w?.runway).toEqual({ requests: floor, ratio: w?.runway.ratio, measured: false });
    }
  }, 300_000);

  it('should name an unknown model and price none of it, nor as another model; --price-as prices it', async () => {
    // Arrange: a real session, its model renamed to one the table does not know
    const text = await fs.readFile(fixturePath('short.jsonl'), 'utf8');
    const file = path.join(dir, 'unknown-model.jsonl');
    await fs.writeFile(file, text.replaceAll('claude-opus-4-6', 'claude-opus-9-9'));

    // Act
    const table = await runCli(['replay', file]);
    const page = path.join(dir, 'unknown-model.html');
    const json = await runCli(['replay', file, '--json', '--html', page]);
    const figures = await runCli(['replay', '--whole-figures', file, '--figure-windows', '200000']);
    const figureRows = await runCli(['replay', '--whole-figures', file, '--figure-windows', '200000', '--json']);
    const priced = await runCli(['replay', file, '--json', '--price-as', 'claude-opus-5-5']);
    const bad = await runCli(['replay', file, '--price-as', 'claude-opus-9-9']);

    // Assert: every figure of the table, the totals, --whole-figures and --json names the model
    expect(table.code).toBe(0);
    expect(table.stdout).toContain('unknown model claude-opus-9-9: not in the price table');
    expect(table.stdout).toContain("these requests' recorded usage billed unknown (no price: claude-opus-9-9)");
    expect(table.stdout).toContain('paid unknown (no price: claude-opus-9-9)');
    expect(table.stdout).toMatch(/total \(1 file\) .*unknown \(no price: claude-opus-9-9\)/);
    expect(table.stdout).not.toMatch(/as recorded .* 0\.00 /);
    const html = await fs.readFile(page, 'utf8');
    expect(html).toMatch(/<td>ctxshed shed<\/td><td>unknown \(no price: claude-opus-9-9\)<\/td>/);
    expect(html).toContain('Paid: unknown (no price: claude-opus-9-9)');
    expect(figures.code).toBe(0);
    expect(figures.stdout).toMatch(/\| recorded, never compacting \| [^|]+ \| [^|]+ \| unknown \(no price: claude-opus-9-9\) \|/);
    expect(figures.stdout).toContain('paid unknown (no price: claude-opus-9-9)');
    type Rows = { rows: Array<{ unpricedModels: string[]; paid: { unpricedModels: string[] } }> };
    for (const row of (JSON.parse(figureRows.stdout) as Rows).rows) {
      expect(row.unpricedModels).toEqual(['claude-opus-9-9']);
      expect(row.paid.unpricedModels).toEqual(['claude-opus-9-9']);
    }
    type Out = {
      sessions: Array<{
        unpricedModels: string[];
        priceAs?: string;
        strategies: Record<string, { costUsd: number; wholeSession: { unpricedModels: string[] } }>;
        paid: { unpricedModels: string[]; unpricedRequests: number };
      }>;
    };
    const [unknown] = (JSON.parse(json.stdout) as Out).sessions;
    expect(unknown?.unpricedModels).toEqual(['claude-opus-9-9']);
    expect(unknown?.strategies['shed']?.wholeSession.unpricedModels).toEqual(['claude-opus-9-9']);
    expect(unknown?.paid.unpricedModels).toEqual(['claude-opus-9-9']);
    expect(unknown?.paid.unpricedRequests).toBeGreaterThan(0);
    const [asOpus] = (JSON.parse(priced.stdout) as Out).sessions;
    expect(asOpus?.unpricedModels).toEqual([]);
    expect(asOpus?.priceAs).toBe('claude-opus-5-5');
    expect(asOpus?.strategies['recorded']?.costUsd).toBeGreaterThan(0);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--price-as');
  }, 120_000);

  it('should refuse what is not a transcript with exit 2, naming the file and the line', async () => {
    // Arrange
    const bad = path.join(dir, 'not-transcripts');
    await fs.mkdir(path.join(bad, 'empty-folder'), { recursive: true });
    const cases: Array<[string, string, string]> = [
      ['not-json.jsonl', 'hello\n', 'line 1 is not JSON'],
      ['empty.jsonl', '', 'it is empty'],
      ['foo.jsonl', '{"foo":1}\n', 'line 1 is JSON but not a Claude Code record'],
      ['readme.jsonl', await fs.readFile(path.join(REPO_ROOT, 'README.md'), 'utf8'), 'line 1 is not JSON'],
    ];
    for (const [name, text] of cases) await fs.writeFile(path.join(bad, name), text);

    // Act
    const results = await Promise.all(cases.map(([name]) => runCli(['replay', path.join(bad, name)])));
    const folder = await runCli(['replay', path.join(bad, 'empty-folder')]);

    // Assert
    for (const [i, [name, , why]] of cases.entries()) {
      expect(results[i]?.code).toBe(2);
      expect(results[i]?.stderr).toContain(`${name} is not a Claude Code transcript: ${why}`);
    }
    expect(folder.code).toBe(2);
    expect(folder.stderr).toContain('empty-folder holds no .jsonl transcript');
  });

  it('should count and report the lines it skipped inside a real transcript', async () => {
    // Arrange
    const file = path.join(dir, 'torn.jsonl');
    await fs.writeFile(file, `${await fs.readFile(fixturePath('short.jsonl'), 'utf8')}garbage\n{"torn":`);

    // Act
    const table = await runCli(['replay', file]);
    const json = await runCli(['replay', file, '--json']);

    // Assert
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/skipped 2 line\(s\) that are not JSON records \(the first: line \d+\)/);
    const [session] = (JSON.parse(json.stdout) as { sessions: Array<{ skippedLines: { lines: number } }> }).sessions;
    expect(session?.skippedLines.lines).toBe(2);
  });

  it("should read Claude Code's projects folder under CLAUDE_CONFIG_DIR with no path, within --since and --until", async () => {
    // Arrange: short.jsonl's requests are on 2026-02-10
    const config = path.join(dir, 'claude-config');
    await fs.mkdir(path.join(config, 'projects', '-home-me-p'), { recursive: true });
    await fs.copyFile(fixturePath('short.jsonl'), path.join(config, 'projects', '-home-me-p', 's.jsonl'));
    const env = { ...process.env, CLAUDE_CONFIG_DIR: config };

    // Act
    const found = await runCli(['replay', '--json', '--since', '2026-02-01', '--until', '20260228'], { env });
    const none = await runCli(['replay', '--since', '2026-03-01'], { env });
    const badDay = await runCli(['replay', '--until', '2026-02-30'], { env });

    // Assert
    expect(found.code).toBe(0);
    expect((JSON.parse(found.stdout) as { sessions: Array<{ file: string }> }).sessions.map((s) => path.basename(s.file))).toEqual(['s.jsonl']);
    expect(none.code).toBe(0);
    expect(none.stdout).toContain('no session has a request between 2026-03-01');
    expect(badDay.code).toBe(2);
    expect(badDay.stderr).toContain('--until takes a day');
  });
});
