/**
 * Security: loopback only, private state (also under a permissive umask), planted symlinks not
 * followed for writes, no secret in anything ctxshed prints or logs, ids validated before they
 * become paths.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startMessagesApi } from '../../src/scripted/messages-api.js';
import { ScriptedClient } from '../../src/scripted/client.js';
import { postRaw } from '../../src/scripted/post-raw.js';
import { toolOutput } from '../../src/scripted/tool-output.js';
import { CLI_PATH, runCtxshed, type CliResult } from '../support/cli-process.js';
import { startTestProxy, tempStateDir, testConfig } from '../support/test-proxy.js';
import { postOversized } from './fuzz-bodies.js';
import { serve, type Served } from './serve-session.js';

const API_KEY = 'sk-ant-api03-RELIABILITYSECRETKEY0123456789abcdefABCDEF';
const BEARER = 'RELIABILITYSECRETBEARER-eyJhbGciOiJIUzI1NiJ9.c2VjcmV0';
const IN_TOOL_RESULT = 'AKIARELIABILITYSECRET/ghp_ReliabilitySecretToken0123456789';

/** `ctxshed serve` under a shell that first sets umask 000. */
function serveWithUmask(args: string[]): Promise<Served> {
  return new Promise((resolve, reject) => {
    const quoted = [process.execPath, CLI_PATH, 'serve', ...args].map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(' ');
    const child = spawn('/bin/sh', ['-c', `umask 000; exec ${quoted}`], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    const exited = new Promise<CliResult>((done) => child.on('close', (code, signal) => done({ code, signal, stdout, stderr })));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      const m = /ANTHROPIC_BASE_URL=(\S+)/.exec(stdout);
      if (m !== null) resolve({ child, url: m[1]!, exited, stop: async () => (child.kill('SIGTERM'), exited) });
    });
    void exited.then((r) => reject(new Error(`serve exited before it was ready: ${r.code} ${r.stderr}`)));
  });
}

async function walk(dir: string): Promise<Array<{ path: string; mode: number; dir: boolean }>> {
  const out: Array<{ path: string; mode: number; dir: boolean }> = [];
  for (const entry of await fs.readdir(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    const st = await fs.lstat(p);
    out.push({ path: p, mode: st.mode & 0o777, dir: entry.isDirectory() });
    if (entry.isDirectory()) out.push(...(await walk(p)));
  }
  return out;
}

describe('security', () => {
  it('should listen on 127.0.0.1 only: another interface address of this machine is refused', async (ctx) => {
    const other = Object.values(os.networkInterfaces())
      .flat()
      .find((a) => a !== undefined && !a.internal && a.family === 'IPv4');
    if (other === undefined) {
      ctx.skip('no non-loopback IPv4 address on this machine to try');
      return;
    }
    const upstream = await startMessagesApi();
    const proxy = await startTestProxy(await tempStateDir(), testConfig(upstream.url));
    // A connect to one of this machine's own addresses never leaves the machine.
    const error = await new Promise<NodeJS.ErrnoException | undefined>((resolve) => {
      const s = net.connect({ host: other!.address, port: proxy.port, timeout: 5000 });
      s.on('connect', () => (s.destroy(), resolve(undefined)));
      s.on('error', (e) => resolve(e));
      s.on('timeout', () => (s.destroy(), resolve(Object.assign(new Error('timeout'), { code: 'TIMEOUT' }))));
    });
    const loopback = await postRaw(proxy.url, '/v1/messages', Buffer.from('{}'));
    await proxy.close();
    await upstream.close();
    console.log(`bind: ${other.address}:${proxy.port} -> ${error?.code ?? 'connected'}`);
    expect(error?.code).toBe('ECONNREFUSED');
    expect(loopback.status).toBe(200);
  });

  it('should keep folders 0700 and files 0600 under umask 000, and not write through planted symlinks', async () => {
    const dir = await tempStateDir();
    const outside = await fs.mkdtemp(path.join(os.tmpdir(), 'ctxshed-outside-'));
    // Symlinks where the proxy will want to write: the wire log and the elided files of the
    // oldest tool results (their names are the sha256 of the text, known in advance).
    await fs.mkdir(path.join(dir, 'elided'), { recursive: true, mode: 0o700 });
    await fs.writeFile(path.join(outside, 'wire-target'), 'untouched\n');
    await fs.symlink(path.join(outside, 'wire-target'), path.join(dir, 'wire.jsonl'));
    const planted: string[] = [];
    for (let turn = 1; turn <= 4; turn++) {
      const sha = createHash('sha256').update(toolOutput(turn, 3000)).digest('hex');
      const target = path.join(outside, `elided-${turn}`);
      await fs.writeFile(target, 'untouched\n');
      await fs.symlink(target, path.join(dir, 'elided', `${sha}.txt`));
      planted.push(target);
    }
    // Left permissive on purpose: the proxy must tighten them (and make conversations/ itself).
    await fs.chmod(dir, 0o755);
    await fs.chmod(path.join(dir, 'elided'), 0o777);
    const upstream = await startMessagesApi();
    const served = await serveWithUmask(['--state', dir, '--upstream', upstream.url, '--window', '20000']);
    const client = new ScriptedClient(served.url);
    const statuses: number[] = [];
    for (let i = 0; i < 22; i++) statuses.push((await client.turnOnce()).status);
    // Now remove the planted links: the same proxy must then write private files of its own.
    await fs.unlink(path.join(dir, 'wire.jsonl'));
    for (const name of await fs.readdir(path.join(dir, 'elided'))) {
      if ((await fs.lstat(path.join(dir, 'elided', name))).isSymbolicLink()) await fs.unlink(path.join(dir, 'elided', name));
    }
    for (let i = 0; i < 3; i++) statuses.push((await client.turnOnce()).status);
    await served.stop();
    await upstream.close();

    const entries = await walk(dir);
    const wrong = entries.filter((e) => !e.path.includes(`${path.sep}.lock`) && e.mode !== (e.dir ? 0o700 : 0o600));
    const rootMode = (await fs.stat(dir)).mode & 0o777;
    console.log(`modes: ${entries.length} entries checked; ${entries.filter((e) => !e.dir).length} files`);
    expect(statuses.every((s) => s === 200)).toBe(true);
    expect(await fs.readFile(path.join(outside, 'wire-target'), 'utf8')).toBe('untouched\n');
    for (const target of planted) expect(await fs.readFile(target, 'utf8')).toBe('untouched\n');
    expect(rootMode).toBe(0o700);
    expect(wrong).toEqual([]);
    expect(entries.some((e) => e.path.endsWith('.txt'))).toBe(true);
    expect(entries.some((e) => e.path.endsWith('wire.jsonl'))).toBe(true);
  }, 60_000);

  it('should keep the API key, the bearer token and a secret in a tool result out of every log and output', async () => {
    const dir = await tempStateDir();
    const upstream = await startMessagesApi();
    const served = await serve(['--state', dir, '--upstream', upstream.url, '--window', '20000']);
    const headers = { 'x-api-key': API_KEY, authorization: `Bearer ${BEARER}` };
    const client = new ScriptedClient(served.url, { headers, toolResultBytes: () => 3000 });
    const outputs: string[] = [];
    for (let i = 0; i < 22; i++) {
      await client.turnOnce();
      // Put the secret into the newest tool result, as a tool would print it.
      const last = client.messages.at(-1)!;
      if (Array.isArray(last.content))
        for (const b of last.content) if (b['type'] === 'tool_result') b['content'] = `${String(b['content'])}\n${IN_TOOL_RESULT}\n`;
    }
    // Error paths: an oversized body and a body to an upstream that refuses.
    const tooBig = await postOversized(served.url, 33 * 1024 * 1024, false, headers);
    outputs.push(tooBig.body.toString('utf8'));
    await served.stop();
    const refused = await serve(['--state', dir, '--upstream', 'http://127.0.0.1:9', '--window', '20000']);
    const bad = await postRaw(refused.url, '/v1/messages', client.body(), headers);
    outputs.push(bad.body.toString('utf8'));
    const stopped = [await refused.stop(), await served.exited];
    await upstream.close();
    const elided = await fs.readdir(path.join(dir, 'elided'));
    const someShow = await runCtxshed(['show', elided[0]!.slice(0, 64), '--state', dir]);

    const commands: Array<[string, CliResult]> = [];
    for (const args of [['verify'], ['status'], ['stats'], ['ls'], ['stats', '--json']]) {
      commands.push([args.join(' '), await runCtxshed([...args, '--state', dir])]);
    }
    const keys = (await fs.readdir(path.join(dir, 'conversations'))).map((n) => n.slice(0, 64));
    commands.push(['show <key>', await runCtxshed(['show', keys[0]!, '--state', dir])]);
    const texts: Array<[string, string]> = [
      ['wire.jsonl', await fs.readFile(path.join(dir, 'wire.jsonl'), 'utf8')],
      ['banner and logs of serve', stopped.map((r) => r.stdout + r.stderr).join('\n')],
      ['error bodies', outputs.join('\n')],
      ...(await Promise.all(
        (
          await fs.readdir(path.join(dir, 'conversations'))
        ).map(async (n): Promise<[string, string]> => [`conversations/${n}`, await fs.readFile(path.join(dir, 'conversations', n), 'utf8')]),
      )),
      ...commands.map(([name, r]): [string, string] => [`ctxshed ${name}`, r.stdout + r.stderr]),
    ];
    const leaks = texts.flatMap(([where, text]) =>
      [API_KEY, BEARER, IN_TOOL_RESULT].filter((s) => text.includes(s)).map((s) => `${where} holds ${s.slice(0, 12)}…`),
    );
    console.log(`secrets: checked ${texts.map(([w, t]) => `${w} (${t.length} chars)`).join(', ')}`);
    expect(commands.map(([name, r]) => [name, r.code])).toEqual(commands.map(([name]) => [name, 0]));
    expect(tooBig.status).toBe(413);
    expect(bad.status).toBe(502);
    expect(leaks).toEqual([]);
    // By design the elided files hold tool results, secrets included (docs/reliability.md).
    expect(someShow.code).toBe(0);
  }, 90_000);

  it('should refuse ids that are not hex before they become paths', async () => {
    const dir = await tempStateDir();
    const tried = ['../../../../etc/passwd', '/etc/passwd', 'abc', `${'a'.repeat(64)}/../../x`, `${'a'.repeat(64)}.txt`, ''];
    const results: Array<[string, CliResult]> = [];
    for (const id of tried) results.push([id, await runCtxshed(['show', id, '--state', dir])]);
    console.log(`ids: ${results.map(([id, r]) => `${JSON.stringify(id)} -> exit ${r.code}: ${r.stderr.trim().split('\n')[0] ?? ''}`).join('; ')}`);
    for (const [, r] of results) {
      expect(r.code).not.toBe(0);
      expect(r.stdout).not.toMatch(/root:/);
    }
  });
});
