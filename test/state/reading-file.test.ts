import fs from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isTempLeftover, type StateDir } from '../../src/state/layout.js';
import { openStateDir } from '../../src/state/open-state-dir.js';
import { openReadingsDir, readingPath, readingsDir, readReading, writeReading } from '../../src/state/reading-file.js';
import { verifyState } from '../../src/state/verify-state.js';
import { tempStateDir } from '../support/test-proxy.js';

const KEY = 'c'.repeat(64);
const READING = { contextTokens: 14_000, window: 20_000, epochsApplied: 1, requestBytes: 52_000 };

let state: StateDir;

beforeEach(async () => {
  state = await openStateDir(await tempStateDir('ctxshed-reading-'));
});

afterEach(async () => {
  await fs.rm(state.root, { recursive: true, force: true });
});

describe('a conversation reading on the state directory', () => {
  it('should read back the last reading written, 0600 in a 0700 folder, and leave verify clean', async () => {
    await openReadingsDir(state);
    await writeReading(state, KEY, { ...READING, contextTokens: 1 });
    await writeReading(state, KEY, READING);

    expect(await readReading(state, KEY)).toEqual(READING);
    expect((await fs.stat(readingPath(state, KEY))).mode & 0o777).toBe(0o600);
    expect((await fs.stat(readingsDir(state))).mode & 0o777).toBe(0o700);
    expect(await fs.readdir(readingsDir(state))).toEqual([`${KEY}.json`]);
    expect((await verifyState(state.root)).problems).toEqual([]);
  });

  it('should read no reading where none was kept, or one that does not read as a reading', async () => {
    expect(await readReading(state, KEY)).toBeUndefined();
    await openReadingsDir(state);
    for (const text of ['{"contextTokens":', '[]', JSON.stringify({ ...READING, window: -1 }), JSON.stringify({ ...READING, requestBytes: '5' })]) {
      await fs.writeFile(readingPath(state, KEY), text);
      expect(await readReading(state, KEY)).toBeUndefined();
    }
  });

  it('should refuse a key that is not a conversation key, and name its temp files as leftovers', async () => {
    expect(() => readingPath(state, '../x')).toThrow();
    expect(isTempLeftover(`${KEY}.json.${process.pid}.3`)).toBe(true);
  });
});
