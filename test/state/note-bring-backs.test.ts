import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkConversationRecord } from '../../src/state/check-conversation-record.js';
import { latchEpoch } from '../../src/state/latch-epoch.js';
import { noteBringBacks } from '../../src/state/note-bring-backs.js';
import { openStateDir, type StateDir } from '../../src/state/open-state-dir.js';
import { readConversation } from '../../src/state/read-conversation.js';
import { verifyState } from '../../src/state/verify-state.js';
import { appendEpochPlan, keyOf, makeTempDir, modeOf, removeTempDir } from './fixtures/state-fixtures.js';

const KEY = keyOf('conversation');
const SHA = 'ab'.repeat(32);
const OTHER = 'cd'.repeat(32);

let tmp: string;
let state: StateDir;
beforeEach(async () => {
  tmp = await makeTempDir();
  state = await openStateDir(tmp);
});
afterEach(async () => {
  await removeTempDir(tmp);
});

describe('noteBringBacks', () => {
  it('should count each bring-back in the record, keep its epochs, and write it 0600 so verify finds nothing wrong', async () => {
    const plan = appendEpochPlan(KEY, undefined, 'a tool result\n'.repeat(100), 7);
    await latchEpoch(state, KEY, () => plan);

    await noteBringBacks(state, KEY, [SHA]);
    const written = await noteBringBacks(state, KEY, [SHA, OTHER]);

    expect(written?.bringBacks).toEqual({ [SHA]: 2, [OTHER]: 1 });
    expect(await readConversation(state, KEY)).toEqual({ ...plan.record, bringBacks: { [SHA]: 2, [OTHER]: 1 } });
    expect(await modeOf(path.join(state.conversationsDir, `${KEY}.json`))).toBe(0o600);
    expect((await verifyState(tmp)).problems).toEqual([]);
  });

  it('should leave a conversation without a record alone', async () => {
    expect(await noteBringBacks(state, KEY, [SHA])).toBeUndefined();
    expect(await fs.readdir(state.conversationsDir)).toEqual([]);
  });

  it('should load a record from before the counts, and refuse counts that are not positive integers of sha256 keys', () => {
    const { record } = appendEpochPlan(KEY, undefined, 'text', 0);

    expect(checkConversationRecord(JSON.parse(JSON.stringify(record)), KEY)).toEqual([]);
    expect(checkConversationRecord({ ...record, bringBacks: { [SHA]: 0 } }, KEY)).toEqual([`bringBacks[${SHA.slice(0, 12)}] is not a positive integer`]);
    expect(checkConversationRecord({ ...record, bringBacks: { nope: 1 } }, KEY)).toEqual(['bringBacks key "nope" is not a sha256']);
    expect(checkConversationRecord({ ...record, bringBacks: [] }, KEY)).toEqual(['bringBacks is not an object']);
  });
});
