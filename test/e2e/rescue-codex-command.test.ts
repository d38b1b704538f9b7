/**
 * `ctxshed rescue -- codex ...` with a stand-in `codex` on PATH that prints what it was given: the
 * proxy becomes Codex's base URL through `-c openai_base_url=...`, and a base URL of the user's own
 * becomes the upstream.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CODEX_GRANT_LINE } from '../../src/cli/codex-target.js';
import { runCtxshed } from '../support/cli-process.js';
import { tempStateDir } from '../support/test-proxy.js';
import { bannerLinesOf } from '../support/banner-lines.js';

/** A directory holding an executable `codex` that prints its arguments and ANTHROPIC_BASE_URL, one per line. */
async function fakeCodexDir(): Promise<string> {
  const dir = await tempStateDir('ctxshed-fake-codex-');
  await fs.writeFile(path.join(dir, 'codex'), '#!/bin/sh\nfor a in "$@"; do echo "$a"; done\necho "ANTHROPIC_BASE_URL=$ANTHROPIC_BASE_URL"\n', { mode: 0o755 });
  return dir;
}

async function rescueCodex(
  args: readonly string[],
  extraEnv: NodeJS.ProcessEnv = {},
  flags: readonly string[] = [],
): Promise<Awaited<ReturnType<typeof runCtxshed>>> {
  const bin = await fakeCodexDir();
  const home = await tempStateDir('ctxshed-codex-home-');
  const env = { ...process.env, PATH: `${bin}:${process.env['PATH'] ?? ''}`, CODEX_HOME: home, ANTHROPIC_BASE_URL: '', ...extraEnv };
  return runCtxshed(['rescue', '--state', await tempStateDir(), ...flags, '--', 'codex', ...args], env);
}

describe('ctxshed rescue -- codex', () => {
  it('should give Codex the proxy as openai_base_url, before its own arguments, and leave ANTHROPIC_BASE_URL alone', async () => {
    // Arrange: the stand-in codex.

    // Act
    const result = await rescueCodex(['exec', 'hello']);

    // Assert
    expect(result.code).toBe(0);
    const lines = result.stdout.trim().split('\n');
    expect(lines[0]).toBe('-c');
    expect(lines[1]).toMatch(/^openai_base_url="http:\/\/127\.0\.0\.1:\d+"$/);
    expect(lines.slice(2)).toEqual(['exec', 'hello', 'ANTHROPIC_BASE_URL=']);
    expect(result.stderr).toMatch(/^ctxshed: rescue on at http:\/\/127\.0\.0\.1:\d+ -> https:\/\/api\.openai\.com\/v1\n/);
    // No sandbox setting is added: Codex's defaults already read the state directory.
    expect(bannerLinesOf(result.stderr)[3]).toBe(CODEX_GRANT_LINE);
    expect(lines.some((l) => /sandbox|approval|add-dir/.test(l))).toBe(false);
  });

  it('should run Codex under --mode shed with the same launch lines, and no word of a fallback', async () => {
    // Arrange: the stand-in codex, with and without --mode shed.

    // Act
    const shed = await rescueCodex(['exec', 'hello'], {}, ['--mode', 'shed']);
    const plain = await rescueCodex(['exec', 'hello']);

    // Assert: shed mode is on for Codex's conversations; nothing says they are rescued instead.
    expect(shed.code).toBe(0);
    expect(shed.stderr).toMatch(/^ctxshed: shed on at /);
    // After the mode's two lines and the metrics line (its port differs): the same launch lines.
    expect(bannerLinesOf(shed.stderr).slice(3)).toEqual(bannerLinesOf(plain.stderr).slice(3));
    expect(shed.stderr).not.toMatch(/instead|no spans/);
  });

  it("should say at launch which window Codex's model is measured against, and name a model it does not know as unknown", async () => {
    const known = await rescueCodex(['exec', '-m', 'gpt-6.2-sol', 'hello']);
    const unknown = await rescueCodex(['exec', '-m', 'gpt-7-nova', 'hello']);

    expect(known.stderr).toContain('ctxshed: codex model gpt-6.2-sol: fullness against its 500,000-token window');
    expect(unknown.stderr).toContain('ctxshed: codex model "gpt-7-nova" is unknown to ctxshed');
  });

  it("should take the user's own -c openai_base_url as the upstream, and drop it from Codex's arguments", async () => {
    // Arrange: the user's gateway.

    // Act
    const result = await rescueCodex(['-c', 'openai_base_url="https://gw.example/openai/v1"', 'exec', 'hello']);

    // Assert
    expect(result.code).toBe(0);
    expect(result.stdout.trim().split('\n').slice(2)).toEqual(['exec', 'hello', 'ANTHROPIC_BASE_URL=']);
    expect(result.stderr).toMatch(/ -> https:\/\/gw\.example\/openai\/v1\n/);
  });

  it("should take openai_base_url from Codex's config.toml, and let --upstream win over both", async () => {
    // Arrange
    const home = await tempStateDir('ctxshed-codex-home-');
    await fs.writeFile(path.join(home, 'config.toml'), 'openai_base_url = "https://from-config.example/v1"\n');

    // Act
    const fromConfig = await rescueCodex(['exec', 'x'], { CODEX_HOME: home });
    const fromFlag = await rescueCodex(['exec', 'x'], { CODEX_HOME: home }, ['--upstream', 'https://flag.example/v1']);

    // Assert
    expect(fromConfig.stderr).toMatch(/ -> https:\/\/from-config\.example\/v1\n/);
    expect(fromFlag.stderr).toMatch(/ -> https:\/\/flag\.example\/v1\n/);
  });
});
