import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkConversationRecord } from '../../src/state/check-conversation-record.js';
import { latchEpoch } from '../../src/state/latch-epoch.js';
import { noteBringBacks } from '../../src/state/note-bring-backs.js';
import { readConversation } from '../../src/state/read-conversation.js';
import { verifyState } from '../../src/state/verify-state.js';
import { appendEpochPlan, keyOf, modeOf, useStateDir } from './fixtures/state-fixtures.js';

const KEY = keyOf('conversation');
const SHA = 'ab'.repeat(32);
const OTHER = 'cd'.repeat(32);

const dirs = useStateDir();

describe('noteBringBacks', () => {
  it('should count each bring-back in the record, keep its epochs, and write it 0600 so verify finds nothing wrong', async () => {
    const plan = appendEpochPlan(KEY, undefined, 'a tool result\n'.repeat(100), 7);
    await latchEpoch(dirs.state, KEY, () => plan);

    await noteBringBacks(dirs.state, KEY, [SHA]);
    const written = await noteBringBacks(dirs.state, KEY, [SHA, OTHER]);

    expect(written?.bringBacks).toEqual({ [SHA]: 2, [OTHER]: 1 });
    expect(await readConversation(dirs.state, KEY)).toEqual({ ...plan.record, bringBacks: { [SHA]: 2, [OTHER]: 1 } });
    expect(await modeOf(path.join(dirs.state.conversationsDir, `${KEY}.json`))).toBe(0o600);
    expect((await verifyState(dirs.tmp)).problems).toEqual([]);
  });

  it('should leave a conversation without a record alone', async () => {
    expect(await noteBringBacks(dirs.state, KEY, [SHA])).toBeUndefined();
    expect(await fs.readdir(dirs.state.conversationsDir)).toEqual([]);
  });

  it('should load a record from before the counts, and refuse counts that are not positive integers of sha256 keys', () => {
    const { record } = appendEpochPlan(KEY, undefined, 'text', 0);

    expect(checkConversationRecord(JSON.parse(JSON.stringify(record)), KEY)).toEqual([]);
    expect(checkConversationRecord({ ...record, bringBacks: { [SHA]: 0 } }, KEY)).toEqual([`bringBacks[${SHA.slice(0, 12)}] is not a positive integer`]);
    expect(checkConversationRecord({ ...record, bringBacks: { nope: 1 } }, KEY)).toEqual(['bringBacks key "nope" is not a sha256']);
    expect(checkConversationRecord({ ...record, bringBacks: [] }, KEY)).toEqual(['bringBacks is not an object']);
  });
});
