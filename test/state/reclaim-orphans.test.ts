/**
 * A latch that fails part-way on a full disk (ENOSPC injected through the state layer's write port,
 * writeFileDurable and writeFileStaged; the real disk is never filled) leaves no orphaned file behind, and one it could
 * not remove is reclaimed by the next successful latch.
 */
import fs from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LatchPlan } from '../../src/state/latch-epoch.js';
import { latchEpoch } from '../../src/state/latch-epoch.js';
import { openStateDir, type StateDir } from '../../src/state/open-state-dir.js';
import { pendingOrphans } from '../../src/state/reclaim-orphans.js';
import { verifyState } from '../../src/state/verify-state.js';
import { blockFor, epochOf, keyOf, makeTempDir, recordOf, removeTempDir } from './fixtures/state-fixtures.js';

const port = vi.hoisted(() => ({ failWhen: (_target: string): boolean => false }));

vi.mock('../../src/state/atomic-write.js', async (original) => {
  const real = await original<typeof import('../../src/state/atomic-write.js')>();
  return {
    ...real,
    writeFileDurable: async (target: string, bytes: Uint8Array): Promise<void> => {
      if (port.failWhen(target)) throw Object.assign(new Error(`could not write ${target}: ENOSPC: no space left on device, write`), { code: 'ENOSPC' });
      return real.writeFileDurable(target, bytes);
    },
    // A latch's elided files go through the batch's staged write.
    writeFileStaged: async (target: string, bytes: Uint8Array): Promise<void> => {
      if (port.failWhen(target)) throw Object.assign(new Error(`could not write ${target}: ENOSPC: no space left on device, write`), { code: 'ENOSPC' });
      return real.writeFileStaged(target, bytes);
    },
  };
});

const KEY = keyOf('conversation');
let tmp: string;
let state: StateDir;
beforeEach(async () => {
  tmp = await makeTempDir();
  state = await openStateDir(tmp);
  port.failWhen = () => false;
});
afterEach(async () => {
  vi.restoreAllMocks();
  await removeTempDir(tmp);
});

/** A plan for epoch `n` of the record `before`, with one block per text. */
function planOf(n: number, texts: readonly string[], before: LatchPlan | undefined = undefined): LatchPlan {
  const made = texts.map((text, i) => blockFor(text, n * 10 + i));
  const epochs = [
    ...(before?.record.epochs ?? []),
    epochOf(
      n,
      made.map((m) => m.block),
    ),
  ];
  return { record: recordOf(KEY, epochs), originals: made.map((m) => m.file) };
}

/** Makes removing the file named by `sha256` fail once, as an I/O error would. */
function failUnlinkOf(sha256: string): { mockRestore(): void } {
  const real = fs.unlink.bind(fs);
  let failed = false;
  return vi.spyOn(fs, 'unlink').mockImplementation(async (file) => {
    if (!failed && String(file).includes(sha256)) {
      failed = true;
      throw Object.assign(new Error('EIO: i/o error, unlink'), { code: 'EIO' });
    }
    return real(file);
  });
}

const text = (name: string): string => `${name}: a tool result\n`.repeat(100);
const elided = (): Promise<string[]> => fs.readdir(state.elidedDir);

describe('a latch that fails part-way', () => {
  it('should remove the files it created when a later file hits a full disk, and write no record', async () => {
    const plan = planOf(1, [text('a'), text('b'), text('c')]);
    const third = plan.originals[2]!.sha256;
    port.failWhen = (target) => target.includes(third);

    await expect(latchEpoch(state, KEY, () => plan)).rejects.toThrow(/ENOSPC/);

    expect(await elided()).toEqual([]);
    expect(await fs.readdir(state.conversationsDir)).toEqual([]);
    expect((await verifyState(tmp)).notes.join('\n')).not.toMatch(/no record names/);
  });

  it('should remove them when the record itself cannot be written, and keep the files an earlier epoch named', async () => {
    const first = planOf(1, [text('kept')]);
    await latchEpoch(state, KEY, () => first);
    // The kept text is in both epochs' files: it existed before this latch.
    const second = planOf(2, [text('kept'), text('new')], first);
    port.failWhen = (target) => target.startsWith(state.conversationsDir);

    await expect(latchEpoch(state, KEY, () => second)).rejects.toThrow(/ENOSPC/);

    expect(await elided()).toEqual([`${first.originals[0]!.sha256}.txt`]);
    expect((await verifyState(tmp)).problems).toEqual([]);
  });

  it('should reclaim an orphan it could not remove on the next successful latch, unless a record names it by then', async () => {
    const plan = planOf(1, [text('a'), text('b')]);
    const [a, b] = plan.originals.map((f) => f.sha256);
    port.failWhen = (target) => target.includes(b!);
    const unlink = failUnlinkOf(a!);

    await expect(latchEpoch(state, KEY, () => plan)).rejects.toThrow(/ENOSPC/);
    const leftBehind = await elided();
    const waiting = pendingOrphans(state);
    unlink.mockRestore();
    port.failWhen = () => false;
    const other = planOf(1, [text('other')]);
    await latchEpoch(state, keyOf('another conversation'), () => ({ ...other, record: { ...other.record, key: keyOf('another conversation') } }));

    expect(leftBehind).toEqual([`${a}.txt`]);
    expect(waiting).toBe(1);
    expect(await elided()).toEqual([`${other.originals[0]!.sha256}.txt`]);
    expect(pendingOrphans(state)).toBe(0);
  });

  it('should leave an orphan it could not remove when the next latch names the same bytes', async () => {
    const plan = planOf(1, [text('shared'), text('b')]);
    const [shared, b] = plan.originals.map((f) => f.sha256);
    port.failWhen = (target) => target.includes(b!);
    const unlink = failUnlinkOf(shared!);
    await expect(latchEpoch(state, KEY, () => plan)).rejects.toThrow(/ENOSPC/);
    unlink.mockRestore();
    port.failWhen = () => false;

    const again = planOf(1, [text('shared')]);
    await latchEpoch(state, KEY, () => again);

    expect(await elided()).toEqual([`${shared}.txt`]);
    expect(pendingOrphans(state)).toBe(0);
    expect((await verifyState(tmp)).problems).toEqual([]);
  });
});
