/**
 * The state directories a session replay writes to (rescue's and shed's), fresh for each test and
 * removed after it, and the replay options that use them.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import type { ReplayOptions } from '../../src/replay/replay-session.js';
import type { SettingsGiven } from '../../src/rescue/index.js';

/** What a test lays on the default options: settings as a command line gives them, and replay's own options. */
export type ReplayOver = SettingsGiven & Partial<Omit<ReplayOptions, 'settings'>>;

/** `over` on top of `base`, split into the settings and replay's own options. */
export function replayOptionsOf(base: ReplayOver & Pick<ReplayOptions, 'stateDir' | 'shedStateDir'>, over: ReplayOver = {}): ReplayOptions {
  const { stateDir, shedStateDir, prefixCheck, priceAs, ...settings } = { ...base, ...over };
  return { settings, stateDir, shedStateDir, ...(prefixCheck === undefined ? {} : { prefixCheck }), ...(priceAs === undefined ? {} : { priceAs }) };
}

/** The current test's directories and an options builder; call once at the top of a test file. */
export interface ReplayDirs {
  /** Rescue's state directory of the current test. */
  readonly dir: () => string;
  /** Shed mode's. */
  readonly shedDir: () => string;
  /** The default replay options on the current test's directories, `over` laid on top. */
  readonly options: (over?: ReplayOver) => ReplayOptions;
}

/** Registers the per-test directories (named `<prefix>-…` in the temp folder). */
export function useReplayDirs(prefix: string): ReplayDirs {
  let dir = '';
  let shedDir = '';
  beforeEach(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), `${prefix}-`));
    shedDir = await fs.mkdtemp(path.join(os.tmpdir(), `${prefix}-shed-`));
  });
  afterEach(async () => {
    await fs.rm(dir, { recursive: true, force: true });
    await fs.rm(shedDir, { recursive: true, force: true });
  });
  return {
    dir: () => dir,
    shedDir: () => shedDir,
    options: (over = {}) => replayOptionsOf({ threshold: 0.7, keepRecent: 6, minBytes: 1024, stateDir: dir, shedStateDir: shedDir }, over),
  };
}
