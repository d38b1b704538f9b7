/**
 * The README's first command, as a person types it in a fresh clone (issue 42 items 1 and 2): it
 * installs the proxy and nothing heavy (no agent client: those are the test-only install's,
 * test/clients), and the demo runs; `npm link` then puts a `ctxshed` on the PATH that answers.
 *
 * The clone is `git clone` of this checkout, so it holds what is committed, not the working tree.
 * npm runs offline (`npm_config_offline`): everything comes from npm's cache, which the checkout's
 * own `npm ci` filled (in CI, `.ci/run`'s), and nothing reaches a network. `npm link` gets a
 * global prefix of its own, so the machine's global `ctxshed` is left alone.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** The most the proxy's own install may take on disk: 212 MB when this was written, against 1.7 GB with the clients. */
const MAX_INSTALL_MB = 400;
/** A bound, not a measure: `npm ci` from the cache and a whole build took 6.5 min here at a load of 20 on 2 cores. */
const INSTALL_TIMEOUT_MS = 15 * 60_000;

/** The first line of the README's set-up block, its comment left out: the command a person types first. */
function firstCommand(readme: string): string {
  const block = /## Set up\n[\s\S]*?```\n([^\n]*)\n/.exec(readme)?.[1];
  if (block === undefined) throw new Error('README.md has no code block under "## Set up"');
  return block.replace(/\s+#.*$/, '').trim();
}

function whyNot(): string | undefined {
  if (!existsSync(path.join(ROOT, '.git'))) return 'not a git checkout';
  if (spawnSync('git', ['--version']).status !== 0) return 'git is not installed';
  if (spawnSync('npm', ['--version']).status !== 0) return 'npm is not installed';
  return undefined;
}

/** An environment with nothing of the npm run that started this test (its npm_* variables), npm offline. */
function freshEnv(extra: Record<string, string> = {}): Record<string, string> {
  const keep = ['PATH', 'HOME', 'TMPDIR', 'LANG'].flatMap((k) => (process.env[k] === undefined ? [] : [[k, process.env[k]!] as const]));
  return {
    ...Object.fromEntries(keep),
    npm_config_offline: 'true',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_update_notifier: 'false',
    ...extra,
  };
}

function run(command: string, cwd: string, env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('sh', ['-c', command], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Disk use of `dir` in MB, as `du` counts it. */
function megabytes(dir: string): number {
  const du = spawnSync('du', ['-sk', dir], { encoding: 'utf8' });
  return Number(du.stdout.split('\t')[0]) / 1024;
}

/** npx's link to `clone` in npm's npx cache (`<cache>/_npx/<hash>/`), which npx keeps after the run. */
function removeNpxLink(clone: string): void {
  const cache = spawnSync('npm', ['config', 'get', 'cache'], { encoding: 'utf8', env: freshEnv() }).stdout.trim();
  const npx = path.join(cache, '_npx');
  for (const entry of existsSync(npx) ? readdirSync(npx) : []) {
    const manifest = path.join(npx, entry, 'package.json');
    if (existsSync(manifest) && readFileSync(manifest, 'utf8').includes(JSON.stringify(clone))) rmSync(path.join(npx, entry), { recursive: true, force: true });
  }
}

const why = whyNot();
if (why !== undefined) console.warn(`fresh-clone test SKIPPED: ${why}`);

let tmp: string | undefined;
afterAll(async () => {
  if (tmp === undefined) return;
  removeNpxLink(path.join(tmp, 'ctxshed'));
  await fs.rm(tmp, { recursive: true, force: true });
}, 120_000);

describe('firstCommand', () => {
  it("should read the first line of the README's set-up block, without its comment", () => {
    expect(firstCommand('# x\n## Set up\n\ntext\n\n```\nnpm ci && npx ctxshed demo    # installs\nnpm test\n```\n')).toBe('npm ci && npx ctxshed demo');
    expect(firstCommand(readFileSync(path.join(ROOT, 'README.md'), 'utf8'))).toMatch(/^npm ci && npx ctxshed demo/);
  });
});

describe.skipIf(why !== undefined)("the README's first command, in a fresh clone", () => {
  it(
    'should install the proxy and no agent client, run the demo, and npm link a ctxshed that answers',
    async () => {
      tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'ctxshed-fresh-clone-'));
      const clone = path.join(tmp, 'ctxshed');
      expect(spawnSync('git', ['clone', '--quiet', ROOT, clone], { encoding: 'utf8' }).status).toBe(0);
      const command = firstCommand(readFileSync(path.join(clone, 'README.md'), 'utf8'));

      const first = await run(command, clone, freshEnv());

      expect(first.code, first.stderr.slice(-2000)).toBe(0);
      // The demo ran: its summary, a clean verify, and commands that paste back in the clone.
      expect(first.stdout).toMatch(/\n {2}epochs {8}[1-9]/);
      expect(first.stdout).toMatch(/\n {2}verify {8}ok: /);
      expect(first.stdout).toMatch(/\n {2}npx ctxshed ls --state /);
      const installed = megabytes(path.join(clone, 'node_modules'));
      console.log(`fresh clone: \`${command}\` installed ${installed.toFixed(0)} MB in node_modules`);
      expect(installed).toBeLessThan(MAX_INSTALL_MB);
      for (const client of ['@anthropic-ai/claude-code', '@openai/codex', 'claude-code-2-1-197', 'codex-0-169-0']) {
        expect(existsSync(path.join(clone, 'node_modules', client)), client).toBe(false);
      }
      expect(existsSync(path.join(clone, 'test', 'clients', 'node_modules'))).toBe(false);

      const global = path.join(tmp, 'global');
      const link = await run('npm link', clone, freshEnv({ npm_config_prefix: global }));
      expect(link.code, link.stderr.slice(-2000)).toBe(0);
      const version = await run('ctxshed --version', tmp, freshEnv({ PATH: `${path.join(global, 'bin')}${path.delimiter}${process.env['PATH'] ?? ''}` }));
      const { version: want } = JSON.parse(readFileSync(path.join(clone, 'package.json'), 'utf8')) as { version: string };
      expect(version.stdout.trim()).toBe(want);
    },
    INSTALL_TIMEOUT_MS,
  );
});
