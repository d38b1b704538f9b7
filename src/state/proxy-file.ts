/**
 * Where a running proxy says it is (`<state>/proxies/<pid>.json`): its URL and its metrics URL,
 * so `ctxshed status` can show them. Written by `rescue` and `serve` when the proxy starts, 0600
 * in a 0700 folder, removed when it stops; a file left by a killed one names a process that is
 * gone, and the reader leaves it out.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { FILE_MODE, PROXIES_DIR_NAME, type StateDir } from './layout.js';
import { openPrivateSubdir } from './private-subdir.js';
import { hasErrnoCode } from './state-error.js';
import { isRecord } from '../errors.js';

/** What a proxy file holds. */
export interface ProxyFile {
  readonly pid: number;
  /** `rescue` or `serve`. */
  readonly command: string;
  readonly url: string;
  readonly metricsUrl: string;
  readonly startedAt: string;
}

const PROXY_NAME = /^(\d{1,10})\.json$/;

/** The proxies folder of a state directory. */
export function proxiesDir(state: StateDir): string {
  return path.join(state.root, PROXIES_DIR_NAME);
}

/** Writes this process's proxy file; resolves to a function that removes it. */
export async function writeProxyFile(state: StateDir, file: ProxyFile): Promise<() => Promise<void>> {
  const dir = proxiesDir(state);
  await openPrivateSubdir(dir);
  const target = path.join(dir, `${file.pid}.json`);
  await fs.writeFile(target, `${JSON.stringify(file)}\n`, { mode: FILE_MODE });
  return () => fs.rm(target, { force: true });
}

/** The proxy files of processes still running (`alive` says which pids are), oldest first. */
export async function readProxyFiles(state: StateDir, alive: (pid: number) => boolean): Promise<ProxyFile[]> {
  let names: string[];
  try {
    names = await fs.readdir(proxiesDir(state));
  } catch (error) {
    if (hasErrnoCode(error, 'ENOENT') || hasErrnoCode(error, 'ENOTDIR')) return [];
    throw error;
  }
  const files: ProxyFile[] = [];
  for (const name of names) {
    const pid = PROXY_NAME.exec(name)?.[1];
    if (pid === undefined || !alive(Number(pid))) continue;
    const file = parseProxyFile(await fs.readFile(path.join(proxiesDir(state), name), 'utf8').catch(() => ''));
    if (file !== undefined && file.pid === Number(pid)) files.push(file);
  }
  return files.sort((a, b) => a.startedAt.localeCompare(b.startedAt) || a.pid - b.pid);
}

function parseProxyFile(text: string): ProxyFile | undefined {
  try {
    const v: unknown = JSON.parse(text);
    if (!isRecord(v)) return undefined;
    const { pid, command, url, metricsUrl, startedAt } = v;
    if (typeof pid !== 'number' || typeof command !== 'string' || typeof url !== 'string' || typeof metricsUrl !== 'string' || typeof startedAt !== 'string')
      return undefined;
    return { pid, command, url, metricsUrl, startedAt };
  } catch {
    return undefined;
  }
}
