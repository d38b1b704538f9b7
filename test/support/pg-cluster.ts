/**
 * A throwaway Postgres cluster for one test file: `initdb` into a temporary directory (as user
 * `postgres` when the tests run as root), `pg_ctl start` on a free 127.0.0.1 port with its socket
 * in that directory, one database; `stop()` stops it and removes the directory. Without Postgres
 * the tests that use it skip, except under CI, where they fail.
 */
import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** A running cluster: a database URL, and how to stop it. */
export interface PgCluster {
  readonly url: string;
  /** A fresh, empty database on the same cluster. */
  createDatabase(name: string): Promise<string>;
  stopServer(): Promise<void>;
  startServer(): Promise<void>;
  stop(): Promise<void>;
}

/** The folder of initdb and pg_ctl, or undefined when Postgres is not installed. */
export function postgresBin(): string | undefined {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).sort((a, b) => Number(b) - Number(a)) : [];
  for (const v of versions) if (existsSync(path.join(root, v, 'bin', 'initdb'))) return path.join(root, v, 'bin');
  return undefined;
}

/** Whether the Postgres tests run here: they skip without Postgres, and fail without it under CI. */
export function postgresAvailable(): boolean {
  if (postgresBin() !== undefined) return true;
  if (process.env['CI'] !== undefined) throw new Error('Postgres (initdb) is not installed, and CI is set: .ci/run installs postgresql');
  return false;
}

/**
 * Starts a cluster; call `stop()` in afterAll. Tests run it with `fsync=off` (nothing they check
 * needs the disk); a benchmark passes `{ durable: true }` so commits are flushed as in production.
 */
export async function startPgCluster(options: { readonly durable?: boolean } = {}): Promise<PgCluster> {
  const bin = postgresBin();
  if (bin === undefined) throw new Error('Postgres is not installed');
  const asRoot = process.getuid?.() === 0;
  // The run's temp root is 0700 and root's: the postgres user needs to pass through it.
  if (asRoot) await fs.chmod(os.tmpdir(), 0o711).catch(() => undefined);
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'pg-'));
  if (asRoot) await run('chown', ['postgres:postgres', dir]);
  const pg = (tool: string, args: readonly string[]): Promise<unknown> =>
    asRoot ? run('runuser', ['-u', 'postgres', '--', path.join(bin, tool), ...args]) : run(path.join(bin, tool), [...args]);
  const data = path.join(dir, 'data');
  await pg('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8']);
  const port = await freePort();
  const fsync = options.durable === true ? '' : ' -c fsync=off';
  const serverOptions = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1${fsync} -c max_connections=100`;
  const startServer = async (): Promise<void> => {
    await pg('pg_ctl', ['-D', data, '-o', serverOptions, '-l', path.join(dir, 'log'), '-w', 'start']);
  };
  const stopServer = async (): Promise<void> => {
    await pg('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
  };
  await startServer();
  const base = `postgres://postgres@127.0.0.1:${port}`;
  const createDatabase = async (name: string): Promise<string> => {
    await pg('createdb', ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', name]);
    return `${base}/${name}`;
  };
  const url = await createDatabase('ctxshed');
  return {
    url,
    createDatabase,
    stopServer,
    startServer,
    async stop() {
      await stopServer().catch(() => undefined);
      await fs.rm(dir, { recursive: true, force: true });
    },
  };
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address !== null ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}
