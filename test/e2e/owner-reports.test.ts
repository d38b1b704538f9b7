/**
 * `ls`, `stats`, `show`, `verify`, `inflate` and `mcp --owner ID` (docs/commands.md): an operator checks one owner's
 * conversations, on a state directory (`<state>/owners/<ID>/`) and on Postgres (that owner's rows);
 * without `--owner` the reports read owner `''` (verify --store: every owner), as before.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStateDir } from '../../src/state/open-state-dir.js';
import { FsStore, openPgStore, PgDb, type ConversationStore } from '../../src/store/index.js';
import { CLI_PATH, runCtxshed } from '../support/cli-process.js';
import type { TextResult } from '../support/gateway-calls.js';
import { postgresAvailable, startPgCluster, type PgCluster } from '../support/pg-cluster.js';
import { tempStateDir } from '../support/test-proxy.js';
import { appendEpochPlan, keyOf } from '../state/fixtures/state-fixtures.js';

const OWNER = 'a1b2c3d4e5f60718293a4b5c6d7e8f90';
const KEY = keyOf('an owner conversation');
const REAL = fileURLToPath(new URL('../fixtures/real/09-main-last.json', import.meta.url));

async function latchFor(root: ConversationStore): Promise<void> {
  const owned = await root.forOwner(OWNER);
  await owned.latch(KEY, () => appendEpochPlan(KEY, undefined, 'an owner tool result\n'.repeat(80), 0));
}

/** Runs the CLI and keeps stdout as bytes (a body is not text to be re-decoded). */
function runBytes(args: readonly string[]): Promise<{ code: number | null; stdout: Buffer }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI_PATH, ...args], { stdio: ['ignore', 'pipe', 'ignore'] });
    const out: Buffer[] = [];
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout: Buffer.concat(out) }));
  });
}

/** One `restore` call through `ctxshed mcp` with `flags`; the text of its answer. */
async function mcpLocal(flags: readonly string[], args: Record<string, unknown>): Promise<string> {
  const client = new Client({ name: 'test', version: '1' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [CLI_PATH, 'mcp', ...flags], stderr: 'pipe' }));
  try {
    const result = (await client.callTool({ name: 'restore', arguments: args })) as TextResult;
    return result.content.map((c) => c.text).join('\n');
  } finally {
    await client.close();
  }
}

async function listed(args: readonly string[]): Promise<string[]> {
  const out = await runCtxshed(['ls', ...args, '--json']);
  expect(out.code, out.stderr).toBe(0);
  return (JSON.parse(out.stdout) as { conversations: Array<{ key: string }> }).conversations.map((c) => c.key);
}

describe('reports of one owner on a state directory', () => {
  let dir = '';
  beforeAll(async () => {
    dir = await tempStateDir('ctxshed-owner-reports-');
    await latchFor(new FsStore(await openStateDir(dir)));
  });

  it("should list, show and verify the owner's conversation with --owner, and none of it without", async () => {
    expect(await listed(['--state', dir, '--owner', OWNER])).toEqual([KEY]);
    expect(await listed(['--state', dir])).toEqual([]);
    expect((await runCtxshed(['show', KEY.slice(0, 12), '--state', dir, '--owner', OWNER])).stdout).toContain(KEY);
    expect((await runCtxshed(['stats', '--state', dir, '--owner', OWNER])).code).toBe(0);
    const verify = await runCtxshed(['verify', '--state', dir, '--owner', OWNER]);
    expect(verify.stdout).toMatch(/^ok: .*owners\/a1b2c3d4e5f60718293a4b5c6d7e8f90: 1 conversation, 1 epoch/m);
  });

  it("should inflate a body with the owner's originals, and restore the owner's text over mcp, with --owner", async () => {
    const ownerDir = path.join(dir, 'owners', OWNER);
    const elided = await runBytes(['elide', REAL, '--keep-recent', '0', '--state', ownerDir]);
    expect(elided.code).toBe(0);
    const small = path.join(dir, '..', `${path.basename(dir)}-small.json`);
    await fs.writeFile(small, elided.stdout);
    const inflated = await runBytes(['inflate', small, '--state', dir, '--owner', OWNER]);
    expect(inflated.stdout.equals(await fs.readFile(REAL))).toBe(true);
    const block = (await new FsStore(await openStateDir(ownerDir)).findOriginals('elided', 'txt', ''))[0]!;
    const restored = await mcpLocal(['--state', dir, '--owner', OWNER], { handle: block });
    expect(restored).toContain(`sha256 ${block}; verified`);
    expect(await mcpLocal(['--state', dir], { handle: block })).toContain('nothing restorable has a sha256 starting');
  }, 60_000);

  it('should refuse an --owner that is no owner id as a usage error', async () => {
    const out = await runCtxshed(['ls', '--state', dir, '--owner', '../elsewhere']);
    expect(out.code).toBe(2);
    expect(out.stderr).toMatch(/--owner: an owner id must be/);
    expect((await runCtxshed(['ls', '--state', dir, '--owner', 'nobody-here'])).stderr).toMatch(/no state directory at .*owners\/nobody-here/);
  });
});

describe.skipIf(!postgresAvailable())('reports of one owner on Postgres', () => {
  let cluster: PgCluster;
  beforeAll(async () => {
    cluster = await startPgCluster();
    const db = new PgDb(cluster.url);
    await db.migrate();
    await db.close();
    const store = await openPgStore(cluster.url);
    await latchFor(store);
    await store.close();
  }, 60_000);
  afterAll(async () => {
    await cluster?.stop();
  });

  it("should list, show and verify one owner's rows with --owner, and verify every owner without it", async () => {
    expect(await listed(['--store', cluster.url, '--owner', OWNER])).toEqual([KEY]);
    expect(await listed(['--store', cluster.url])).toEqual([]);
    expect(await listed(['--store', cluster.url, '--owner', 'someone-else'])).toEqual([]);
    expect((await runCtxshed(['show', KEY.slice(0, 12), '--store', cluster.url, '--owner', OWNER])).stdout).toContain(KEY);
    const one = await runCtxshed(['verify', '--store', cluster.url, '--owner', OWNER]);
    expect(one.stdout).toMatch(new RegExp(`^ok: postgres://\\S+ \\(owner ${OWNER}\\): 1 conversation, 1 epoch`, 'm'));
    expect((await runCtxshed(['verify', '--store', cluster.url, '--owner', 'someone-else'])).stdout).toMatch(/\(owner someone-else\): 0 conversations/);
    expect((await runCtxshed(['verify', '--store', cluster.url])).stdout).toMatch(/^ok: postgres:\/\/\S+: 1 conversation/m);
  }, 60_000);
});
