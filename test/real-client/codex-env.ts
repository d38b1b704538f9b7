/** Where the real Codex CLI is, whether it runs here, and how to point it at a base URL offline. */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { CODEX_CURRENT_BIN, CODEX_OLDER_BIN } from '../clients/client-paths.js';

/** A Codex release the real-client suites run, where its launcher is installed, and its default model. */
export interface CodexClient {
  readonly version: string;
  readonly bin: string;
  /**
   * The model its runs pin with `-m`, so a thread and its resumes send the same bodies: the
   * release's own default (its bundled model list), so the requests are the ones its users send.
   */
  readonly model: string;
}

/**
 * The releases the test-only install puts in test/clients (`npm test` installs it): the current
 * one under its own name, the older one beside it under an npm alias (`codex-0-169-0`), its
 * platform package nested under the alias (test/clients/client-paths.ts).
 */
export const CODEX_CLIENTS = {
  current: { version: '0.171.0', bin: CODEX_CURRENT_BIN, model: 'gpt-6.2-sol' },
  older: { version: '0.169.0', bin: CODEX_OLDER_BIN, model: 'gpt-6.1-sol' },
} as const satisfies Record<string, CodexClient>;

export type CodexName = keyof typeof CODEX_CLIENTS;

/** The scenario argument that picks the release (`--codex older`); without it, the current one. */
export const CODEX_FLAG = '--codex';

/** The release named by `--codex NAME` in `argv`, else the current one. */
export function codexFromArgv(argv: readonly string[]): CodexClient {
  const i = argv.indexOf(CODEX_FLAG);
  if (i === -1) return CODEX_CLIENTS.current;
  const name = argv[i + 1];
  if (name !== 'current' && name !== 'older') throw new Error(`${CODEX_FLAG} takes current or older, not ${String(name)}`);
  return CODEX_CLIENTS[name];
}

/** The Codex this process drives: a scenario reads it from its own arguments; everything else gets the current one. */
export const CODEX_CLIENT = codexFromArgv(process.argv);
export const CODEX_BIN = CODEX_CLIENT.bin;
/** The model this process's runs pin: its release's default (0.171.0: `gpt-6.2-sol`, 500,000 tokens; 0.169.0: `gpt-6.1-sol`). */
export const CODEX_MODEL = CODEX_CLIENT.model;
/**
 * A fake key, given as `CODEX_API_KEY`: with it `codex exec` sends `authorization: Bearer <key>`
 * (checked; with `OPENAI_API_KEY` alone and no `codex login`, 0.169.0 sends no authorization at all).
 */
export const CODEX_TEST_KEY = 'sk-test-000';

/** `undefined` when the Codex CLI runs here, else why not. */
export function whyCodexCannotRun(client: CodexClient = CODEX_CLIENT): string | undefined {
  const bin = client.bin;
  if (!existsSync(bin)) return `${bin} is missing: run npm run test:clients (npm test does)`;
  const probe = spawnSync(bin, ['--version'], {
    encoding: 'utf8',
    timeout: 60_000,
    env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: '/nonexistent' },
  });
  if (probe.error !== undefined) return `${bin} --version failed: ${probe.error.message}`;
  if (probe.status !== 0 || !/codex-cli/.test(probe.stdout)) {
    return `${bin} --version exited ${String(probe.status)}: ${(probe.stderr || probe.stdout).trim().slice(0, 200)}`;
  }
  if (probe.stdout.trim() !== `codex-cli ${client.version}`) return `${bin} is ${probe.stdout.trim()}, not ${client.version}: run npm run test:clients`;
  return undefined;
}

/**
 * `undefined` when Codex's own sandbox starts here, else why not. The tests run Codex in its
 * default mode, where every command runs in that sandbox (bubblewrap, then seccomp, on Linux);
 * where it cannot start (no user namespaces, say) every command fails, whatever ctxshed does.
 */
export function whyCodexSandboxCannotRun(): string | undefined {
  const probe = spawnSync(CODEX_BIN, ['sandbox', '--', 'true'], {
    encoding: 'utf8',
    timeout: 60_000,
    env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: '/nonexistent' },
  });
  if (probe.error !== undefined) return `codex sandbox -- true failed: ${probe.error.message}`;
  if (probe.status !== 0) {
    const why = (probe.stderr || probe.stdout)
      .split('\n')
      .filter((l) => l.trim() !== '' && !l.startsWith('WARNING:'))
      .join(' ')
      .slice(0, 200);
    return `codex sandbox -- true exited ${String(probe.status)}: ${why}`;
  }
  return undefined;
}

/**
 * The environment Codex runs with: a scratch HOME (its `~/.codex` holds sessions and config),
 * the fake key, and nothing else but PATH. `OPENAI_BASE_URL` is not among them: Codex 0.169.0
 * ignores it (checked: with it set, Codex still resolves api.openai.com); the base URL is the
 * `openai_base_url` config key, passed with `-c` (see `codexBaseUrlArgs`).
 */
export function codexEnv(home: string): Record<string, string> {
  return { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: home, CODEX_API_KEY: CODEX_TEST_KEY };
}

/** `-c openai_base_url="<url>"`: the built-in `openai` provider's base URL (`.../v1`). */
export function codexBaseUrlArgs(baseUrl: string): string[] {
  return ['-c', `openai_base_url=${JSON.stringify(baseUrl)}`];
}

/**
 * `codex exec` flags for an unattended, reproducible run in `cwd`, sandbox and approvals bypassed
 * (the fixture capture's choice; rescue-codex-scenario.ts runs Codex's default mode instead).
 */
export function codexExecArgs(cwd: string): string[] {
  return ['--skip-git-repo-check', '--dangerously-bypass-approvals-and-sandbox', '--json', '-m', CODEX_MODEL, '-C', cwd];
}

/** What a model call's `x-codex-turn-metadata` header says about the turn. */
export interface CodexTurnMeta {
  /** The mechanism commands run under: `seccomp` on Linux (bubblewrap, then seccomp), `none` when bypassed. */
  readonly sandbox?: string;
  /** `read-only`, `workspace-write` or `danger-full-access`. */
  readonly sandboxMode?: string;
  /** `user` for the conversation, `thread_title` for the TUI's side call that names the thread. */
  readonly threadSource?: string;
}

/** The turn metadata of a model call (its `x-codex-turn-metadata` header); empty when it has none. */
export function codexTurnMetaOf(headers: Record<string, string | string[] | undefined>): CodexTurnMeta {
  const raw = headers['x-codex-turn-metadata'];
  if (typeof raw !== 'string') return {};
  try {
    const meta = JSON.parse(raw) as { sandbox?: unknown; sandbox_mode?: unknown; thread_source?: unknown };
    return {
      ...(typeof meta.sandbox === 'string' ? { sandbox: meta.sandbox } : {}),
      ...(typeof meta.sandbox_mode === 'string' ? { sandboxMode: meta.sandbox_mode } : {}),
      ...(typeof meta.thread_source === 'string' ? { threadSource: meta.thread_source } : {}),
    };
  } catch {
    return {};
  }
}

/** The `<permissions instructions>` Codex gives its model (sandbox mode and approval policy, in words). */
export function permissionsInstructionsOf(body: Buffer): string | undefined {
  const parsed = JSON.parse(body.toString('utf8')) as { input?: Array<{ content?: Array<{ text?: unknown }> }> };
  for (const item of parsed.input ?? []) {
    for (const part of Array.isArray(item.content) ? item.content : []) {
      if (typeof part.text === 'string' && part.text.startsWith('<permissions instructions>')) return part.text;
    }
  }
  return undefined;
}
