/** A small state directory with one conversation of two elided blocks, for the restore tests. */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { latchEpoch } from '../../src/state/latch-epoch.js';
import { openStateDir, type StateDir } from '../../src/state/open-state-dir.js';
import { blockFor, epochOf, keyOf, recordOf, shedEpochOf, spanFor } from '../state/fixtures/state-fixtures.js';

export const FIRST_TEXT = 'first tool result: café ✓\n'.repeat(60);
export const SECOND_TEXT = 'second tool result\n'.repeat(80);

/** A state directory in a fresh temp dir, and the blocks it holds (ordinals 0 and 1, epochs 1 and 2). */
export async function stateWithBlocks(): Promise<{ tmp: string; state: StateDir; key: string; shas: [string, string] }> {
  const tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'ctxshed-restore-'));
  const state = await openStateDir(tmp);
  const key = keyOf('restore');
  const a = blockFor(FIRST_TEXT, 0);
  const b = blockFor(SECOND_TEXT, 1);
  await latchEpoch(state, key, () => ({ record: recordOf(key, [epochOf(1, [a.block])]), originals: [a.file] }));
  await latchEpoch(state, key, (current) => ({
    record: recordOf(key, [
      ...(current?.epochs ?? []),
      epochOf(2, [{ ...b.block, label: 'pointer', rule: 'default', tool: 'Bash', input: 'npm test', refetch: 'elided-file' } as typeof b.block]),
    ]),
    originals: [b.file],
  }));
  return { tmp, state, key, shas: [a.block.sha256, b.block.sha256] };
}

/**
 * Adds a shed conversation to `state`: two epochs, spans of messages 1..3 and 5..6 (the second
 * with a goal pin), latched after the rescue conversation of `stateWithBlocks`.
 */
export async function addShedConversation(state: StateDir): Promise<{ key: string; spans: [ReturnType<typeof spanFor>, ReturnType<typeof spanFor>] }> {
  const key = keyOf('shed');
  const a = spanFor('early', 1, 3);
  const b = spanFor('later', 5, 6);
  const late = (n: number): string => `2025-02-01T00:00:0${n}.000Z`;
  await latchEpoch(state, key, () => ({ record: recordOf(key, [{ ...shedEpochOf(1, a.span), latchedAt: late(1) }]), originals: a.originals }));
  await latchEpoch(state, key, (current) => ({
    record: recordOf(key, [...(current?.epochs ?? []), { ...shedEpochOf(2, { ...b.span, pins: ['[ctxshed:goal] keep it'] }), latchedAt: late(2) }]),
    originals: b.originals,
  }));
  return { key, spans: [a, b] };
}
