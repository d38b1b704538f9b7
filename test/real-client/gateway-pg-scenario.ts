/**
 * The real Claude Code (default permission mode, print mode) through two `ctxshed serve --store
 * postgres://… --owner-from credential` replicas on one Postgres: the client's model requests go
 * to replica 1, and the restore tool it is given is `ctxshed mcp --gateway` pointed at replica 2.
 * The scripted model reads six files until epochs latch, loads the restore tool with ToolSearch,
 * and restores every stub it saw. Writes observations.json under `--root` for
 * gateway-pg-real-client.test.ts, with the owner's stored texts read from the database.
 *
 *   node_modules/.bin/tsx test/real-client/gateway-pg-scenario.ts --root /tmp/some-empty-dir
 */
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { REQUEST_CLASS_VAR, TOOL_SEARCH_VAR } from '../../src/cli/child-launch.js';
import { ownerIdOf } from '../../src/proxy/owner-rule.js';
import { startMessagesApi } from '../../src/scripted/messages-api.js';
import { PgDb } from '../../src/store/index.js';
import { claudeGrant } from '../../src/wrapper/claude-grant.js';
import { runCtxshed } from '../support/cli-process.js';
import { CLI_PATH } from '../support/cli-process.js';
import { startPgCluster } from '../support/pg-cluster.js';
import { serve, type Served } from '../reliability/serve-session.js';
import { CLAUDE_BIN, clientEnv, isInNetns, MODEL, reexecInNetns } from './client-env.js';
import { gatewayModel, type GatewayObservations, type Seen } from './gateway-scenario.js';
import { GRANT_RESCUE_FLAGS } from './grant-scenario.js';
import { FILE_NAMES } from './rescue-scenario.js';
import { runToEnd } from './run-to-end.js';
import { linesOf } from './scratch-text.js';

/** The client's credential, as clientEnv gives it: its hash is the owner. */
export const CLIENT_KEY = 'sk-ant-test-000';

/** What the run saw, and what the database and the replicas' directories held after it. */
export interface GatewayPgObservations extends GatewayObservations {
  /** The owner's elided texts in the database, by sha256. */
  readonly stored: Record<string, string>;
  /** The owners that have rows. */
  readonly owners: string[];
  /** Every file under each replica's elided/, spans/ and conversations/ (its own and its owners'). */
  readonly localFiles: string[];
  /** The replicas' URLs: [the client's, the restore tool's]. */
  readonly replicas: string[];
}

async function main(): Promise<void> {
  const i = process.argv.indexOf('--root');
  if (i === -1 || process.argv[i + 1] === undefined) throw new Error('usage: gateway-pg-scenario.ts --root <empty dir>');
  const relaunched = reexecInNetns();
  if (relaunched !== undefined) process.exit(await relaunched);
  const root = resolve(process.argv[i + 1]!);
  const [home, projectDir, stateDir] = ['home', 'project', 'state'].map((d) => join(root, d)) as [string, string, string];
  const states = [join(root, 'replica-1'), join(root, 'replica-2')];
  for (const dir of [home, projectDir, ...states]) mkdirSync(dir, { recursive: true });
  const files = FILE_NAMES.map((name) => join(projectDir, name));
  for (const [n, file] of files.entries()) writeFileSync(file, linesOf(`f${n + 1}`, 12 * 1024));
  const seen: Seen = { stubs: new Map(), results: {} };
  const restores: Record<string, string> = {};
  const model = gatewayModel(files, seen, restores);
  const cluster = await startPgCluster();
  const upstream = await startMessagesApi({ respond: (req) => model(req) });
  const replicas: Served[] = [];
  try {
    const migrated = await runCtxshed(['migrate', '--store', cluster.url]);
    if (migrated.code !== 0) throw new Error(`migrate failed: ${migrated.stderr}`);
    for (const [n, state] of states.entries()) {
      const flags = [...GRANT_RESCUE_FLAGS, '--store', cluster.url, '--owner-from', 'credential', '--state', state, '--upstream', upstream.url];
      replicas.push(await serve([...flags, '--replica-name', `r${n + 1}`]));
    }
    const [one, two] = replicas as [Served, Served];
    const grant = claudeGrant(stateDir, { node: process.execPath, entry: CLI_PATH }, two.url);
    if (grant.kind !== 'grant') throw new Error(grant.why);
    const env = { ...clientEnv(one.url, home, isInNetns()), [TOOL_SEARCH_VAR]: 'true', [REQUEST_CLASS_VAR]: '1' };
    delete (env as Record<string, string>)['IS_SANDBOX'];
    const started = performance.now();
    const run = await runToEnd(
      CLAUDE_BIN,
      [...grant.words, '-p', 'Read the scratch files.', '--model', MODEL, '--output-format', 'json'],
      projectDir,
      env,
      300_000,
    );
    const seconds = (performance.now() - started) / 1000;
    for (const r of replicas) await r.stop();
    const observations: GatewayPgObservations = {
      isolated: isInNetns(),
      stateDir,
      code: run.code,
      stderr: run.stderr.slice(-4000),
      restores,
      results: seen.results,
      stubs: [...seen.stubs.values()],
      seconds,
      ...(await readDatabase(cluster.url)),
      localFiles: states.flatMap(localFiles),
      replicas: replicas.map((r) => r.url),
    };
    writeFileSync(join(root, 'observations.json'), JSON.stringify(observations, null, 2));
  } finally {
    for (const r of replicas) await r.stop();
    await upstream.close();
    await cluster.stop();
  }
}

/** The owner's elided texts, and which owners have rows. */
async function readDatabase(url: string): Promise<{ stored: Record<string, string>; owners: string[] }> {
  const db = new PgDb(url);
  try {
    const texts = await db.withClient((c) =>
      c.query<{ sha256: string; bytes: Buffer }>("SELECT sha256, bytes FROM ctxshed_originals WHERE owner = $1 AND kind = 'elided' AND ext = 'txt'", [
        ownerIdOf(CLIENT_KEY),
      ]),
    );
    const owners = await db.withClient((c) =>
      c.query<{ owner: string }>('SELECT owner FROM ctxshed_conversations UNION SELECT owner FROM ctxshed_originals ORDER BY owner'),
    );
    return { stored: Object.fromEntries(texts.rows.map((r) => [r.sha256, r.bytes.toString('utf8')])), owners: owners.rows.map((r) => r.owner) };
  } finally {
    await db.close();
  }
}

/** Every file ctxshed keeps originals or records in under a replica's state directory. */
function localFiles(state: string): string[] {
  const owners = safeNames(join(state, 'owners')).map((o) => join(state, 'owners', o));
  return [state, ...owners].flatMap((dir) => ['elided', 'spans', 'conversations'].flatMap((sub) => safeNames(join(dir, sub)).map((n) => join(dir, sub, n))));
}

function safeNames(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === resolve(fileURLToPath(import.meta.url))) await main();
