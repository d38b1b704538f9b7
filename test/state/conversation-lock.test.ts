/**
 * Latching at load (docs/team.md): a latch holds its own conversation's lock, not the whole state
 * directory's, so another conversation latches meanwhile; two latches of one conversation still
 * take turns; and the elided files of one latch are written as one batch, all durable before the record.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { latchEpoch } from '../../src/state/latch-epoch.js';
import { readConversation } from '../../src/state/read-conversation.js';
import { verifyState } from '../../src/state/verify-state.js';
import { appendEpochPlan, blockFor, epochOf, keyOf, recordOf, useStateDir } from './fixtures/state-fixtures.js';

const dirs = useStateDir();

function gate(): { opened: Promise<void>; open: () => void } {
  let open: () => void = () => undefined;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

describe('the conversation lock', () => {
  it("should let another conversation latch while one conversation's latch is held", async () => {
    const [a, b] = [keyOf('a'), keyOf('b')];
    const held = gate();
    const entered = gate();
    const first = latchEpoch(dirs.state, a, async () => {
      entered.open();
      await held.opened;
      return appendEpochPlan(a, undefined, 'a text\n'.repeat(50), 1);
    });
    await entered.opened;
    // Under one lock for the whole directory this would wait for `first`, which waits for it: a hang.
    const second = await latchEpoch(dirs.state, b, () => appendEpochPlan(b, undefined, 'b text\n'.repeat(50), 1));
    expect(second?.epochs.length).toBe(1);
    held.open();
    expect((await first)?.epochs.length).toBe(1);
    expect((await verifyState(dirs.tmp)).problems).toEqual([]);
  });

  it('should make two latches of one conversation take turns, the second deciding on what the first wrote', async () => {
    const key = keyOf('one');
    const seen: number[] = [];
    const latch = (text: string) =>
      latchEpoch(dirs.state, key, (current) => {
        seen.push(current?.epochs.length ?? 0);
        return appendEpochPlan(key, current, text, 10 + seen.length);
      });
    await Promise.all([latch('first\n'.repeat(40)), latch('second\n'.repeat(40))]);
    expect(seen).toEqual([0, 1]);
    expect((await readConversation(dirs.state, key))?.epochs.length).toBe(2);
  });

  it('should write a latch of many blocks with every file in place and no staging file left', async () => {
    const key = keyOf('many');
    const made = Array.from({ length: 300 }, (_, i) => blockFor(`block ${i}\n${'y'.repeat(2000)}`, i + 1));
    await latchEpoch(dirs.state, key, () => ({
      record: recordOf(key, [
        epochOf(
          1,
          made.map((m) => m.block),
        ),
      ]),
      originals: made.map((m) => m.file),
    }));
    const names = await fs.readdir(dirs.state.elidedDir);
    expect(names.sort()).toEqual(made.map((m) => `${m.block.sha256}.txt`).sort());
    for (const name of names.slice(0, 5)) expect((await fs.stat(path.join(dirs.state.elidedDir, name))).mode & 0o777).toBe(0o600);
    expect((await verifyState(dirs.tmp)).problems).toEqual([]);
  });
});
