/** Where the real Claude Code client is, whether it runs here, and how to keep it on loopback. */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CLAUDE_CURRENT_BIN, CLAUDE_OLDER_BIN } from '../clients/client-paths.js';

export const TSX_BIN = fileURLToPath(new URL('../../node_modules/.bin/tsx', import.meta.url));

/** A Claude Code release the real-client suites run, and where its binary is installed. */
export interface ClaudeClient {
  readonly version: string;
  readonly bin: string;
  /**
   * The model every run pins, so a resumed session sends the same bytes as the first one: the
   * release's own default, so the requests are the ones its users send.
   */
  readonly model: string;
}

/**
 * The releases the test-only install puts in test/clients (`npm test` installs it): the current
 * one under its own name, the older one side by side under an npm alias (test/clients/client-paths.ts).
 */
export const CLAUDE_CLIENTS = {
  current: { version: '2.1.332', bin: CLAUDE_CURRENT_BIN, model: 'claude-opus-5-5' },
  older: { version: '2.1.197', bin: CLAUDE_OLDER_BIN, model: 'claude-sonnet-4-5' },
} as const satisfies Record<string, ClaudeClient>;

export type ClientName = keyof typeof CLAUDE_CLIENTS;

/** The scenario argument that picks the client (`--client older`); without it, the current one. */
export const CLIENT_FLAG = '--client';

/** The client named by `--client NAME` in `argv`, else the current one. */
export function clientFromArgv(argv: readonly string[]): ClaudeClient {
  const i = argv.indexOf(CLIENT_FLAG);
  if (i === -1) return CLAUDE_CLIENTS.current;
  const name = argv[i + 1];
  if (name !== 'current' && name !== 'older') throw new Error(`${CLIENT_FLAG} takes ${Object.keys(CLAUDE_CLIENTS).join(' or ')}, not ${String(name)}`);
  return CLAUDE_CLIENTS[name];
}

/**
 * The client this process drives: a scenario script reads it from its own arguments (which its
 * re-run inside `unshare -n` keeps); everything else gets the current one.
 */
export const CLIENT = clientFromArgv(process.argv);
export const CLAUDE_BIN = CLIENT.bin;
export const MODEL = CLIENT.model;

/** `undefined` when the client runs here (and is the release it should be), else why not. */
export function whyClientCannotRun(client: ClaudeClient = CLAUDE_CLIENTS.current): string | undefined {
  const bin = client.bin;
  if (!existsSync(bin)) return `${bin} is missing: run npm run test:clients (npm test does)`;
  const probe = spawnSync(bin, ['--version'], {
    encoding: 'utf8',
    timeout: 60_000,
    env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: '/nonexistent' },
  });
  if (probe.error !== undefined) return `${bin} --version failed: ${probe.error.message}`;
  if (probe.status !== 0 || !/Claude Code/.test(probe.stdout)) {
    return `${bin} --version exited ${String(probe.status)}: ${(probe.stderr || probe.stdout).trim().slice(0, 200)}`;
  }
  if (!probe.stdout.startsWith(`${client.version} `)) return `${bin} is ${probe.stdout.trim()}, not ${client.version}: run npm run test:clients`;
  return undefined;
}

/** Whether `unshare -n` gives this process a network namespace with only `lo`. */
export function canUnshareNet(): boolean {
  return spawnSync('unshare', ['-n', 'sh', '-c', 'ip link set lo up'], { stdio: 'ignore' }).status === 0;
}

/**
 * The client's environment: the base URL and nothing that would make it call home. Without a
 * network namespace, HTTPS_PROXY points at `baseUrl`, which refuses CONNECT.
 */
export function clientEnv(baseUrl: string, home: string, isolated: boolean): Record<string, string> {
  return {
    PATH: process.env['PATH'] ?? '/usr/bin:/bin',
    ANTHROPIC_BASE_URL: baseUrl,
    ANTHROPIC_API_KEY: 'sk-ant-test-000',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_TELEMETRY: '1',
    DISABLE_ERROR_REPORTING: '1',
    DISABLE_AUTOUPDATER: '1',
    HOME: home,
    IS_SANDBOX: '1',
    ...(isolated ? {} : { HTTPS_PROXY: baseUrl, https_proxy: baseUrl, NO_PROXY: '127.0.0.1,localhost', no_proxy: '127.0.0.1,localhost' }),
  };
}

const NETNS_MARKER = 'CTXSHED_REAL_CLIENT_IN_NETNS';
/** Set to 1 to try the fallback: no network namespace, HTTPS_PROXY at a CONNECT-refusing upstream. */
const NO_UNSHARE = 'CTXSHED_REAL_CLIENT_NO_UNSHARE';

/**
 * Re-runs this script inside `unshare -n` (loopback only) and resolves with its exit code; or
 * undefined when it already runs there, cannot, or is told not to (then run it here).
 */
export function reexecInNetns(): Promise<number> | undefined {
  if (process.env[NETNS_MARKER] === '1' || process.env[NO_UNSHARE] === '1' || !canUnshareNet()) return undefined;
  const child = spawn('unshare', ['-n', 'sh', '-c', 'ip link set lo up && exec "$@"', 'sh', process.execPath, ...process.execArgv, ...process.argv.slice(1)], {
    stdio: 'inherit',
    env: { ...process.env, [NETNS_MARKER]: '1' },
  });
  return new Promise((res) => child.on('close', (code) => res(code ?? 1)));
}

/** Whether this process runs in the network namespace reexecInNetns made. */
export function isInNetns(): boolean {
  return process.env[NETNS_MARKER] === '1';
}
