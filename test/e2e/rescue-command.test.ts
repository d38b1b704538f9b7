import fs from 'node:fs/promises';
import net from 'node:net';
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI_PATH, runCtxshed } from '../support/cli-process.js';
import { tempStateDir } from '../support/test-proxy.js';
import { PROXY_UNAVAILABLE_EXIT } from '../../src/cli/unproxied-launch.js';
import { bannerLinesOf } from '../support/banner-lines.js';

/** Runs `body` with a port on 127.0.0.1 held by another listener. */
async function withTakenPort(body: (port: number) => Promise<void>): Promise<void> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    await body((server.address() as net.AddressInfo).port);
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
}

const exists = (file: string): Promise<boolean> =>
  fs.stat(file).then(
    () => true,
    () => false,
  );

async function rescue(command: readonly string[], extra: readonly string[] = []): Promise<Awaited<ReturnType<typeof runCtxshed>>> {
  const state = await tempStateDir();
  return runCtxshed(['rescue', '--state', state, '--upstream', 'http://127.0.0.1:9', ...extra, '--', ...command]);
}

describe('ctxshed rescue, the wrapper', () => {
  it.each([
    { name: 'exits 0', command: ['sh', '-c', 'exit 0'], code: 0, signal: null },
    { name: 'exits 3', command: ['sh', '-c', 'exit 3'], code: 3, signal: null },
    { name: 'is killed by SIGTERM', command: ['sh', '-c', 'kill -TERM $$'], code: null, signal: 'SIGTERM' },
    { name: 'is killed by SIGKILL', command: ['sh', '-c', 'kill -KILL $$'], code: null, signal: 'SIGKILL' },
  ])('should end like a command that $name', async ({ command, code, signal }) => {
    const result = await rescue(command);

    expect({ code: result.code, signal: result.signal }).toEqual({ code, signal });
  });

  it('should exit 127 with one clear line when the command is not found, before any banner or proxy', async () => {
    const result = await rescue(['ctxshed-no-such-command-here']);

    expect(result.code).toBe(127);
    expect(result.stderr).toBe('ctxshed: command not found: ctxshed-no-such-command-here\n');
  });

  it('should exit 126 when the command is not executable', async () => {
    const dir = await tempStateDir('ctxshed-noexec-');
    const file = path.join(dir, 'script.sh');
    await fs.writeFile(file, '#!/bin/sh\necho hi\n', { mode: 0o644 });

    const result = await rescue([file]);

    expect(result.code).toBe(126);
  });

  it('should give the child ANTHROPIC_BASE_URL on loopback and print the banner and, for another command than Claude Code, that no grant was given', async () => {
    const result = await rescue(['sh', '-c', 'echo "$ANTHROPIC_BASE_URL"']);

    expect(result.code).toBe(0);
    expect(result.stdout.trim()).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const lines = bannerLinesOf(result.stderr);
    expect(lines).toHaveLength(4);
    expect(lines[0]).toMatch(/^ctxshed: rescue on at http:\/\/127\.0\.0\.1:\d+ -> /);
    expect(lines[1]).toMatch(
      /^ctxshed: epochs latch at 55% .*old tool results over 1024 bytes, old tool inputs over 256 and old assistant texts over 256 bytes become stubs, originals kept in /,
    );
    expect(lines[2]).toBe(`ctxshed: Prometheus metrics at ${result.stdout.trim()}/_ctxshed/metrics`);
    expect(lines[3]).toBe('ctxshed: no read grant: sh is not Claude Code, so reading an elided file back may ask for permission');
    // It fits an 80-column terminal: a line is wider only when it is one word (a long path).
    for (const line of result.stderr.trimEnd().split('\n')) expect(line.length <= 80 || !line.trim().includes(' ')).toBe(true);
  });

  it('should write where its metrics are to the state directory, for status to show while it runs, and take it away after', async () => {
    const state = await tempStateDir();
    const status = `${JSON.stringify(process.execPath)} ${JSON.stringify(CLI_PATH)} status --json --state ${JSON.stringify(state)}`;

    const result = await runCtxshed([
      'rescue',
      '--state',
      state,
      '--upstream',
      'http://127.0.0.1:9',
      '--',
      'sh',
      '-c',
      `echo "$ANTHROPIC_BASE_URL"; ${status}`,
    ]);

    expect(result.code).toBe(0);
    const [url, ...json] = result.stdout.split('\n');
    const { proxies } = JSON.parse(json.join('\n')) as { proxies: Array<Record<string, unknown>> };
    expect(proxies).toEqual([
      { pid: expect.any(Number) as number, command: 'rescue', url, metricsUrl: `${url}/_ctxshed/metrics`, startedAt: expect.any(String) as string },
    ]);
    expect(await fs.readdir(path.join(state, 'proxies'))).toEqual([]);
  });

  it('should run a claude on PATH with the grant first and every user word after it, and tool search on unless the user set it', async () => {
    const bin = await tempStateDir('ctxshed-fake-claude-');
    await fs.writeFile(path.join(bin, 'claude'), '#!/bin/sh\nprintf "%s\\n" "TOOL_SEARCH=$ENABLE_TOOL_SEARCH" "$@"\n', { mode: 0o755 });
    const state = await tempStateDir();
    const env = { ...process.env, PATH: `${bin}${path.delimiter}${process.env['PATH'] ?? ''}` };
    const user = ['--allowedTools', 'Bash(git *)', '-p', 'fix it', '--resume', '--', '--not-a-flag'];

    const result = await runCtxshed(['rescue', '--state', state, '--upstream', 'http://127.0.0.1:9', '--', 'claude', ...user], env);

    expect(result.code).toBe(0);
    const [search, allowed, mcp, settings, ...rest] = result.stdout.trimEnd().split('\n');
    const real = await fs.realpath(state);
    expect(search).toBe('TOOL_SEARCH=true');
    expect(allowed).toBe(`--allowedTools=Read(/${real}/elided/**),Read(/${real}/spans/**),mcp__ctxshed__restore,mcp__ctxshed__spans`);
    expect(JSON.parse(mcp!.slice('--mcp-config='.length))).toMatchObject({
      mcpServers: { ctxshed: { command: process.execPath, args: [expect.stringMatching(/dist\/src\/cli\/main\.js$/), 'mcp', '--state', real] } },
    });
    expect(JSON.parse(settings!.slice('--settings='.length))).toEqual({
      statusLine: { type: 'command', command: expect.stringMatching(/dist\/src\/cli\/main\.js statusline --state /) as string, padding: 0 },
    });
    expect(rest).toEqual(user);
    expect(bannerLinesOf(result.stderr)[3]).toMatch(/^ctxshed: Claude Code \(the claude executable\) may read .*\/elided\/ and spans\//);

    const own = await runCtxshed(['rescue', '--no-grant', '--no-statusline', '--state', state, '--upstream', 'http://127.0.0.1:9', '--', 'claude', '-p', 'x'], {
      ...env,
      ENABLE_TOOL_SEARCH: 'false',
    });
    expect(own.stdout).toBe('TOOL_SEARCH=false\n-p\nx\n');
  });

  it("should compose Claude Code's status line with the user's own, never replace it, and print the two on one line", async () => {
    const bin = await tempStateDir('ctxshed-fake-claude-');
    await fs.writeFile(path.join(bin, 'claude'), '#!/bin/sh\nprintf "%s\\n" "$@"\n', { mode: 0o755 });
    const config = await tempStateDir('ctxshed-claude-config-');
    await fs.writeFile(path.join(config, 'settings.json'), JSON.stringify({ statusLine: { type: 'command', command: 'echo their line' } }));
    const state = await tempStateDir();
    const env = { ...process.env, PATH: `${bin}${path.delimiter}${process.env['PATH'] ?? ''}`, CLAUDE_CONFIG_DIR: config };

    const result = await runCtxshed(['rescue', '--no-grant', '--state', state, '--upstream', 'http://127.0.0.1:9', '--', 'claude'], env);

    const settings = JSON.parse(result.stdout.trim().slice('--settings='.length)) as { statusLine: { command: string } };
    expect(settings.statusLine.command).toMatch(/ statusline --state \S+ --compose 'echo their line'$/);
    const shown = spawnSync('/bin/sh', ['-c', settings.statusLine.command], { input: '{"session_id":"s-1"}', encoding: 'utf8' });
    expect(shown.stdout).toBe('their line  ctxshed on · no request yet\n');
  });

  it('should not run the command when the port is taken, and say so with the port, the upstream and exit 69 (issue 29 repro)', async () => {
    await withTakenPort(async (port) => {
      const state = await tempStateDir();
      const args = ['rescue', '--port', String(port), '--state', state, '--upstream', 'http://127.0.0.1:41901', '--'];

      const result = await runCtxshed([...args, 'sh', '-c', 'echo ran'], { ...process.env, ANTHROPIC_BASE_URL: '' });

      expect(result.code).toBe(PROXY_UNAVAILABLE_EXIT);
      expect(result.stdout).toBe('');
      expect(result.stderr).toBe(
        `ctxshed: cannot start the proxy on 127.0.0.1:${port} for http://127.0.0.1:41901/: listen EADDRINUSE: address already in use 127.0.0.1:${port}; not running sh (exit 69); --allow-unproxied runs it without ctxshed\n`,
      );
    });
  });

  it('should, with --allow-unproxied, run the command pointed at the --upstream the user named, never the default', async () => {
    await withTakenPort(async (port) => {
      const state = await tempStateDir();
      const args = ['rescue', '--allow-unproxied', '--port', String(port), '--state', state, '--upstream', 'http://127.0.0.1:41901', '--'];

      const result = await runCtxshed([...args, 'sh', '-c', 'echo "[$ANTHROPIC_BASE_URL]"; exit 4'], { ...process.env, ANTHROPIC_BASE_URL: '' });

      expect(result.code).toBe(4);
      expect(result.stdout.trim()).toBe('[http://127.0.0.1:41901]');
      expect(result.stderr).toMatch(/^ctxshed: cannot start the proxy on 127\.0\.0\.1:\d+ .*EADDRINUSE.*; --allow-unproxied: running sh without ctxshed\n$/);
    });
  });

  it('should, with --allow-unproxied and no --upstream, leave the environment as it was when the state directory is unusable', async () => {
    const dir = await tempStateDir();
    const notADir = path.join(dir, 'file');
    await fs.writeFile(notADir, 'x');

    const result = await runCtxshed(['rescue', '--allow-unproxied', '--state', notADir, '--', 'sh', '-c', 'echo "[$ANTHROPIC_BASE_URL]"; exit 4'], {
      ...process.env,
      ANTHROPIC_BASE_URL: '',
    });

    expect(result.code).toBe(4);
    expect(result.stdout.trim()).toBe('[]');
    expect(result.stderr).toMatch(
      /^ctxshed: cannot start the proxy on a free port on 127\.0\.0\.1 for https:\/\/api\.anthropic\.com\/: .*; --allow-unproxied: running sh without ctxshed\n$/,
    );
  });

  it('should refuse to run the command when the state directory is unusable', async () => {
    const dir = await tempStateDir();
    const notADir = path.join(dir, 'file');
    await fs.writeFile(notADir, 'x');

    const result = await runCtxshed(['rescue', '--state', notADir, '--', 'sh', '-c', 'echo ran']);

    expect(result.code).toBe(PROXY_UNAVAILABLE_EXIT);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/not running sh \(exit 69\)/);
  });

  it('should refuse a missing command with a usage error', async () => {
    const result = await rescue([]);

    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/name the command to run after --/);
  });

  it('should, after the client exits, finish its shutdown and exit like the client through a ^C pressed while a request is still in flight', async () => {
    // Arrange: an upstream that takes a request and never answers, so the proxy drains for the
    // whole grace; a client that leaves such a request behind and exits 7, deaf to ^C itself.
    const held: net.Socket[] = [];
    const upstream = net.createServer((socket) => held.push(socket));
    const connected = new Promise<void>((resolve) => upstream.once('connection', () => resolve()));
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    const state = await tempStateDir();
    const marker = path.join(state, 'client-done');
    const request = `fetch(process.env.ANTHROPIC_BASE_URL + '/v1/messages', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: 'claude-sonnet-4-5', max_tokens: 8, messages: [{ role: 'user', content: 'hi' }] }) }).catch(() => {})`;
    const client = `trap '' INT; ${JSON.stringify(process.execPath)} -e ${JSON.stringify(request)} >/dev/null 2>&1 & while [ ! -e ${JSON.stringify(`${marker}.go`)} ]; do sleep 0.05; done; : > ${JSON.stringify(marker)}; exit 7`;
    const { port } = upstream.address() as net.AddressInfo;
    const ctxshed = spawn(process.execPath, [CLI_PATH, 'rescue', '--state', state, '--upstream', `http://127.0.0.1:${port}`, '--', 'sh', '-c', client], {
      stdio: 'ignore',
    });
    const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      ctxshed.once('exit', (code, signal) => resolve({ code, signal })),
    );

    try {
      // Act: the request is in flight; the client exits; a ^C lands while the proxy drains.
      await connected;
      await fs.writeFile(`${marker}.go`, '');
      while (!(await exists(marker))) await new Promise((resolve) => setTimeout(resolve, 20));
      await new Promise((resolve) => setTimeout(resolve, 300));
      ctxshed.kill('SIGINT');
      const result = await ended;

      // Assert
      expect(result).toEqual({ code: 7, signal: null });
      expect(await fs.readdir(path.join(state, 'proxies'))).toEqual([]);
    } finally {
      ctxshed.kill('SIGKILL');
      upstream.close();
      for (const socket of held) socket.destroy();
    }
  }, 20_000);
});
