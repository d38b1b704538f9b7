import { execFile } from 'node:child_process';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, runCli } from '../cli/cli-run.js';
import { CLI_PATH } from '../support/cli-process.js';
import { fixtureLines, fixturePath } from './fixtures.js';

/** The shared transcripts (docs/economics.md, "Results on the shared transcripts"), kept in the repository with their license. */
const SHARED_TRANSCRIPTS = path.join(REPO_ROOT, 'test', 'fixtures', 'sessions');
const FIXTURES = path.dirname(fixturePath('short.jsonl'));
/** util-linux's `script` runs a command on a pseudo-terminal: the only way to give it a TTY stderr. */
const SCRIPT = '/usr/bin/script';

let dir: string;
beforeAll(async () => {
  dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'replay-ttl-'));
});
afterAll(async () => {
  await fsp.rm(dir, { recursive: true, force: true });
});

interface TtlJson {
  ttl: {
    sessions: number;
    pairs: number;
    agreement: number;
    confusion: Record<string, Record<string, number>>;
    band: Record<string, unknown>;
    resumes: { turns: number; newFile: number; afterGap: number; billedWarm: number; cold: Record<string, number>; list: unknown[] };
    skipped: Record<string, number>;
    disagreements: unknown[];
  };
}

describe('ctxshed replay --ttl', () => {
  it('should back-test a folder of real sessions as JSON, with nothing on stderr when it is no terminal', async () => {
    // Act
    const result = await runCli(['replay', '--ttl', FIXTURES, '--json']);

    // Assert: 1 + 12 + 4 requests in three sessions; tool_heavy's third request re-read only its system prompt
    expect([result.code, result.stderr]).toEqual([0, '']);
    const { ttl } = JSON.parse(result.stdout) as TtlJson;
    expect(Object.keys(ttl)).toEqual([
      'sessions',
      'conversations',
      'requests',
      'pairs',
      'agreement',
      'confusion',
      'rule',
      'byTtl',
      'band',
      'unforeseeable',
      'resumes',
      'skipped',
      'disagreements',
    ]);
    expect([ttl.sessions, ttl.pairs, ttl.agreement]).toEqual([3, 14, 0.9286]);
    expect(ttl.confusion).toEqual({ predictedWarm: { billedWarm: 13, billedCold: 1 }, predictedCold: { billedWarm: 0, billedCold: 0 } });
  });

  it('should print the table', async () => {
    // Act
    const result = await runCli(['replay', '--ttl', FIXTURES]);

    // Assert
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('agreement 92.9% (13 of 14;');
    expect(result.stdout).toMatch(/predicted warm\s+13\s+1\n/);
  });

  it('should find a resume into a new file and leave its copied records out', async () => {
    // Arrange: a later file carrying the whole of subagent.jsonl, then a new prompt two hours on,
    // answered cold: 30,000 tokens re-cached, 14,000 sent plain, the system prompt read
    const resumed = [
      ...fixtureLines('subagent.jsonl').filter((l) => l.trim() !== ''),
      JSON.stringify({ type: 'user', isSidechain: false, timestamp: '2026-02-11T00:05:00.000Z', message: { role: 'user', content: 'and now?' } }),
      JSON.stringify({
        type: 'assistant',
        isSidechain: false,
        timestamp: '2026-02-11T00:05:04.000Z',
        message: {
          model: 'claude-opus-4-6',
          id: 'msg_resumed_1',
          role: 'assistant',
          content: [{ type: 'text', text: 'back' }],
          usage: {
            input_tokens: 14_000,
            cache_read_input_tokens: 18_000,
            cache_creation_input_tokens: 30_000,
            cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 30_000 },
            output_tokens: 5,
          },
        },
      }),
    ];
    await fsp.copyFile(fixturePath('subagent.jsonl'), path.join(dir, 'a.jsonl'));
    await fsp.writeFile(path.join(dir, 'b.jsonl'), `${resumed.join('\n')}\n`);

    // Act
    const result = await runCli(['replay', '--ttl', dir, '--json']);

    // Assert
    const { ttl } = JSON.parse(result.stdout) as TtlJson;
    expect(ttl.skipped['copy']).toBe(12);
    expect(ttl.pairs).toBe(12);
    expect(ttl.resumes).toMatchObject({ turns: 1, newFile: 1, afterGap: 0, billedWarm: 0 });
    expect(ttl.resumes.cold).toMatchObject({ contextTokens: 62_000, cacheWriteTokens: 30_000, inputTokens: 14_000, cacheReadTokens: 18_000 });
    // docs/commands.md shows this entry
    expect(ttl.resumes.list).toEqual([
      {
        session: path.join(dir, 'b.jsonl'),
        kind: 'newFile',
        sentAt: '2026-02-11T00:05:00.000Z',
        gapMinutes: 121.2,
        billedWarm: false,
        inputTokens: 14_000,
        cacheReadTokens: 18_000,
        cacheWriteTokens: 30_000,
      },
    ]);
  });

  it.skipIf(!fs.existsSync(SCRIPT))("should show its progress on a terminal's stderr, never in the JSON on stdout", async () => {
    // Arrange
    const out = path.join(dir, 'out.json');
    const command = `'${process.execPath}' '${CLI_PATH}' replay --ttl '${FIXTURES}' --json > '${out}'`;

    // Act: stdout goes to the file, stderr stays on the pseudo-terminal `script` records
    const { stdout: terminal } = await promisify(execFile)(SCRIPT, ['-qec', command, '/dev/null'], { cwd: REPO_ROOT });

    // Assert
    // One line, overwritten in place, cleared once the reading is done
    expect(terminal).toContain('\r\x1b[Kctxshed: reading transcripts: 3/3 files, 17 requests\r\x1b[K');
    expect(terminal).not.toContain('\n');
    expect((JSON.parse(await fsp.readFile(out, 'utf8')) as TtlJson).ttl.pairs).toBe(14);
  });

  it('should refuse a path that does not exist in one line with exit 1', async () => {
    // Act
    const result = await runCli(['replay', '--ttl', path.join(dir, 'nope')]);

    // Assert
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(/^ctxshed: cannot read transcripts: ENOENT/);
  });

  it('should refuse --html, which only the replay draws, as a usage error', async () => {
    // Act
    const result = await runCli(['replay', '--ttl', FIXTURES, '--html', path.join(dir, 'x.html')]);

    // Assert
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--html');
  });

  it('should give the figures docs/economics.md quotes for the shared transcripts', async () => {
    // Act
    const result = await runCli(['replay', '--ttl', SHARED_TRANSCRIPTS, FIXTURES, '--json']);

    // Assert
    const { ttl } = JSON.parse(result.stdout) as TtlJson;
    expect([ttl.sessions, ttl.pairs, ttl.agreement]).toEqual([5, 383, 0.9922]);
    expect(ttl.confusion).toEqual({ predictedWarm: { billedWarm: 380, billedCold: 3 }, predictedCold: { billedWarm: 0, billedCold: 0 } });
    expect(ttl.skipped).toEqual({ copy: 0, modelChanged: 2, nothingCached: 0, noTime: 0 });
    expect(ttl.resumes.turns).toBe(0);
  });
});
