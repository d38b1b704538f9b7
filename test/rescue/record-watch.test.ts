import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { watchRecords, type RecordWatch } from '../../src/rescue/record-watch.js';
import { conversationPath, type StateDir } from '../../src/state/layout.js';
import { openStateDir } from '../../src/state/open-state-dir.js';
import { tempStateDir } from '../support/test-proxy.js';

const KEY = 'a'.repeat(64);
const OTHER = 'b'.repeat(64);

let state: StateDir;
let watch: RecordWatch;

beforeEach(async () => {
  state = await openStateDir(await tempStateDir('ctxshed-watch-'));
  const started = watchRecords(state);
  if (started === undefined) throw new Error('no watch on this platform');
  watch = started;
});

afterEach(async () => {
  watch.close();
  await fs.rm(state.root, { recursive: true, force: true });
});

/** Writes a record by a rename into place, its temp file outside the folder: the watch sees only the record's name. */
async function writeRecord(key: string): Promise<void> {
  const staged = path.join(state.root, 'staged.json');
  await fs.writeFile(staged, '{}');
  await fs.rename(staged, conversationPath(state, key));
}

describe('RecordWatch.take', () => {
  it('should say changed the first time, then unchanged until the record is written', async () => {
    // Arrange
    const first = watch.take(KEY);

    // Act
    const second = watch.take(KEY);
    await writeRecord(KEY);

    // Assert: the write is reported, asynchronously; until then the watch vouches as before.
    expect([first, second]).toEqual([false, true]);
    await vi.waitFor(() => expect(watch.take(KEY)).toBe(false));
    expect(watch.take(KEY)).toBe(true);
  });

  it("should count a latch's temp file as a change of any record", async () => {
    // Arrange
    watch.take(OTHER);

    // Act: a temp file appears (another process's latch, before its rename).
    await fs.writeFile(`${conversationPath(state, KEY)}.77`, '{}');

    // Assert
    await vi.waitFor(() => expect(watch.take(OTHER)).toBe(false));
  });

  it('should stop vouching for good once something else happens in the folder, or once closed', async () => {
    // Arrange
    watch.take(KEY);

    // Act: a stray file, which no latch writes.
    await fs.writeFile(path.join(state.conversationsDir, 'notes.txt'), 'x');

    // Assert
    await vi.waitFor(() => expect(watch.take(KEY)).toBe(false));
    expect(watch.take(KEY)).toBe(false);
    watch.close();
    expect(watch.take(KEY)).toBe(false);
  });
});

describe('watchRecords', () => {
  it('should give no watch when the folder cannot be watched', async () => {
    // Arrange
    await fs.rm(state.conversationsDir, { recursive: true });

    // Act
    const none = watchRecords(state);

    // Assert
    expect(none).toBeUndefined();
  });
});
