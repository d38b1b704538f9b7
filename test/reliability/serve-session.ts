/**
 * A real `ctxshed serve` process (the built CLI) over a fresh state directory, in front of the
 * scripted Messages API (src/scripted), with a scripted session driven far enough that an epoch has
 * latched. Shared by the fuzz test, the long fuzz and the crash-point test.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { startMessagesApi, type MessagesApi } from '../../src/scripted/messages-api.js';
import { ScriptedClient } from '../../src/scripted/client.js';
import { CLI_PATH, CRASH_CLI_PATH, type CliResult } from '../support/cli-process.js';
import { tempStateDir } from '../support/test-proxy.js';

export interface Served {
  readonly child: ChildProcess;
  readonly url: string;
  readonly exited: Promise<CliResult>;
  /** SIGTERM (if still running) and wait for the exit. */
  stop(): Promise<CliResult>;
}

/**
 * Like test/support's startServe, but with extra environment variables; one that names a crash
 * point (`CTXSHED_TEST_CRASH_AT`) starts the CLI through the entry that arms it (crash-cli.ts).
 */
export function serve(args: readonly string[], env: Record<string, string> = {}): Promise<Served> {
  const entry = env['CTXSHED_TEST_CRASH_AT'] === undefined ? CLI_PATH : CRASH_CLI_PATH;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [entry, 'serve', ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    const exited = new Promise<CliResult>((done) => child.on('close', (code, signal) => done({ code, signal, stdout, stderr })));
    const stop = async (): Promise<CliResult> => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    };
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdout!.on('data', (d: Buffer) => {
      stdout += d.toString();
      const m = /ANTHROPIC_BASE_URL=(\S+)/.exec(stdout);
      if (m !== null) resolve({ child, url: m[1]!, exited, stop });
    });
    void exited.then((r) => reject(new Error(`serve exited before it was ready: ${r.code} ${r.signal} ${r.stderr}`)));
  });
}

export interface Session {
  readonly dir: string;
  readonly upstream: MessagesApi;
  readonly served: Served;
  readonly client: ScriptedClient;
  readonly args: string[];
  /** The bodies the upstream received since the last call (and forgets them). */
  received(): Buffer[];
  close(): Promise<void>;
}

/** Starts upstream and serve, and runs `turns` turns of a scripted session through it. */
export async function startSession(turns = 22, dir?: string): Promise<Session> {
  const stateDir = dir ?? (await tempStateDir('ctxshed-rel-'));
  const upstream = await startMessagesApi();
  const args = ['--state', stateDir, '--upstream', upstream.url, '--window', '20000'];
  const served = await serve(args);
  const client = new ScriptedClient(served.url);
  for (let i = 0; i < turns; i++) {
    const res = await client.turnOnce();
    if (res.status !== 200) throw new Error(`turn ${i} answered ${res.status}`);
  }
  return {
    dir: stateDir,
    upstream,
    served,
    client,
    args,
    received: () => upstream.requests.splice(0).map((r) => r.body),
    close: async () => {
      await served.stop();
      await upstream.close();
    },
  };
}
