/**
 * A conversation's last usage reading (`<state>/readings/<key>.json`), so every process on one
 * state directory judges the conversation's next request on the same reading, whichever of them
 * took the last response, as Postgres replicas do (issue 41: two `serve` on one directory latched
 * a turn or more late, each on its own reading). Written after each response that carries usage,
 * through a temp file and a rename (a reader sees the old reading or the new, never half of one),
 * without fsync: a reading lost to a crash is the one a restart never had. 0600 in a 0700 folder.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { FullnessReading } from '../core/index.js';
import { isRecord } from '../errors.js';
import { conversationPath, FILE_MODE, READINGS_DIR_NAME, type StateDir } from './layout.js';
import { openPrivateSubdir } from './private-subdir.js';

/** The readings folder of a state directory. */
export function readingsDir(state: StateDir): string {
  return path.join(state.root, READINGS_DIR_NAME);
}

/** The path of a conversation's reading; refuses a key that is not 64 lowercase hex digits (as its record's path does). */
export function readingPath(state: StateDir, key: string): string {
  return path.join(readingsDir(state), path.basename(conversationPath(state, key)));
}

let temps = 0;

/**
 * Keeps `reading` as the conversation's last. A reading that cannot be written takes the older one
 * away (best effort), so no process judges the conversation on a reading older than this one's.
 */
export async function writeReading(state: StateDir, key: string, reading: FullnessReading): Promise<void> {
  const target = readingPath(state, key);
  // The temp name ends in .<pid>.<n>: a leftover of a killed write (layout.ts's isTempLeftover).
  const temp = `${target}.${process.pid}.${++temps}`;
  try {
    await fs.writeFile(temp, `${JSON.stringify(reading)}\n`, { mode: FILE_MODE });
    await fs.rename(temp, target);
  } catch (error) {
    await Promise.all([fs.rm(temp, { force: true }), fs.rm(target, { force: true })]).catch(() => undefined);
    throw error;
  }
}

/** Opens the readings folder (0700, made with the first reading): before the first `writeReading`. */
export function openReadingsDir(state: StateDir): Promise<void> {
  return openPrivateSubdir(readingsDir(state));
}

/** The conversation's last reading, or undefined when none was kept or it does not read as one. */
export async function readReading(state: StateDir, key: string): Promise<FullnessReading | undefined> {
  const text = await fs.readFile(readingPath(state, key), 'utf8').catch(() => undefined);
  return text === undefined ? undefined : parseReading(text);
}

const FIELDS = ['contextTokens', 'window', 'epochsApplied', 'requestBytes'] as const;

function parseReading(text: string): FullnessReading | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isRecord(value)) return undefined;
  for (const field of FIELDS) {
    const n = value[field];
    if (typeof n !== 'number' || !Number.isFinite(n) || n < 0) return undefined;
  }
  return {
    contextTokens: value['contextTokens'] as number,
    window: value['window'] as number,
    epochsApplied: value['epochsApplied'] as number,
    requestBytes: value['requestBytes'] as number,
  };
}
