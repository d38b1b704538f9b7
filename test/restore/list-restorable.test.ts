import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { listRestorable } from '../../src/restore/list-restorable.js';
import type { StateDir } from '../../src/state/layout.js';
import { latchEpoch } from '../../src/state/latch-epoch.js';
import { sealBlock } from '../../src/state/seal-block.js';
import { blockFor, epochOf, keyOf, recordOf } from '../state/fixtures/state-fixtures.js';
import { addShedConversation, stateWithBlocks } from './fixtures.js';

let tmp: string;
let state: StateDir;
let key: string;
let shas: [string, string];
beforeEach(async () => {
  ({ tmp, state, key, shas } = await stateWithBlocks());
});
afterEach(async () => {
  await fs.rm(tmp, { recursive: true, force: true });
});

describe('listRestorable', () => {
  it('should list each block with its epoch, and the tool and input where the record has them', async () => {
    const list = await listRestorable(state);
    expect(list.unreadable).toEqual([]);
    expect(list.conversations).toHaveLength(1);
    expect(list.conversations[0]).toMatchObject({ key, lastLatchedAt: '2025-01-01T00:00:02.000Z' });
    expect(list.conversations[0]!.blocks).toEqual([
      { sha256: shas[0], bytes: expect.any(Number), epoch: 1, ordinal: 0, toolUseId: 'toolu_0', sealed: false, present: true },
      { sha256: shas[1], bytes: expect.any(Number), epoch: 2, ordinal: 1, toolUseId: 'toolu_1', tool: 'Bash', input: 'npm test', sealed: false, present: true },
    ]);
  });

  it('should mark a sealed block, and put the conversation with the newest epoch first', async () => {
    await sealBlock(state, shas[1], { reason: null, now: '2026-01-01T00:00:00.000Z' });
    const other = keyOf('newer');
    const c = blockFor('newer text\n'.repeat(200), 0);
    await latchEpoch(state, other, () => ({
      record: recordOf(other, [{ ...epochOf(1, [c.block]), latchedAt: '2025-06-01T00:00:00.000Z' }]),
      originals: [c.file],
    }));

    const list = await listRestorable(state);
    expect(list.conversations.map((x) => x.key)).toEqual([other, key]);
    expect(list.conversations[1]!.blocks.map((b) => b.sealed)).toEqual([false, true]);
  });

  it('should skip a record that does not read and name it, listing the rest', async () => {
    await fs.writeFile(path.join(state.conversationsDir, `${'d'.repeat(64)}.json`), '{', { mode: 0o600 });
    const list = await listRestorable(state);
    expect(list.unreadable).toEqual([`${'d'.repeat(64)}.json`]);
    expect(list.conversations).toHaveLength(1);
  });

  it("should list a shed conversation's spans with their messages, bytes and epoch, and a missing one as such", async () => {
    const shed = await addShedConversation(state);
    await fs.rm(path.join(state.spansDir, `${shed.spans[1].span.sha256}.json`));
    const list = await listRestorable(state);
    expect(list.conversations.map((c) => c.key)).toEqual([shed.key, key]);
    expect(list.conversations[0]).toMatchObject({ blocks: [], lastLatchedAt: '2025-02-01T00:00:02.000Z' });
    expect(list.conversations[0]!.spans).toEqual([
      { sha256: shed.spans[0].span.sha256, bytes: shed.spans[0].span.bytes, epoch: 1, messages: 3, first: 1, last: 3, pins: 0, present: true },
      { sha256: shed.spans[1].span.sha256, bytes: shed.spans[1].span.bytes, epoch: 2, messages: 2, first: 5, last: 6, pins: 1, present: false },
    ]);
    expect(list.conversations[1]!.spans).toEqual([]);
  });
});
