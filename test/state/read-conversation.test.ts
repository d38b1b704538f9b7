import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { serializeConversationRecord } from '../../src/state/conversation-record.js';
import { openStateDir, type StateDir } from '../../src/state/open-state-dir.js';
import { listConversations, readConversation } from '../../src/state/read-conversation.js';
import { epochOf, keyOf, makeTempDir, recordOf, removeTempDir } from './fixtures/state-fixtures.js';

let tmp: string;
let state: StateDir;
beforeEach(async () => {
  tmp = await makeTempDir();
  state = await openStateDir(tmp);
});
afterEach(async () => {
  await removeTempDir(tmp);
});

async function put(name: string, content: string | Uint8Array): Promise<void> {
  await fs.writeFile(path.join(state.conversationsDir, name), content, { mode: 0o600 });
}

describe('readConversation', () => {
  it('should return undefined for a conversation without a record', async () => {
    expect(await readConversation(state, keyOf('none'))).toBeUndefined();
  });

  it('should read a record', async () => {
    const record = recordOf(keyOf('a'), [epochOf(1, [])]);
    await put(`${record.key}.json`, serializeConversationRecord(record));
    expect(await readConversation(state, record.key)).toEqual(record);
  });

  it('should throw STATE_BAD_RECORD for a broken record rather than guess', async () => {
    await put(`${keyOf('a')}.json`, '{"format":"ctxshed.conv');
    await expect(readConversation(state, keyOf('a'))).rejects.toMatchObject({ code: 'STATE_BAD_RECORD' });
  });

  it('should refuse to read a record through a symlink', async () => {
    const outside = path.join(tmp, 'outside.json');
    await fs.writeFile(outside, serializeConversationRecord(recordOf(keyOf('a'), [])));
    await fs.symlink(outside, path.join(state.conversationsDir, `${keyOf('a')}.json`));
    await expect(readConversation(state, keyOf('a'))).rejects.toMatchObject({ code: 'STATE_SYMLINK' });
  });

  it('should refuse a key that is not 64 lowercase hex digits', async () => {
    await expect(readConversation(state, '../../etc/passwd')).rejects.toMatchObject({ code: 'STATE_BAD_NAME' });
  });
});

describe('listConversations', () => {
  it('should list records oldest first, skipping temp leftovers and stray names', async () => {
    const older = { ...recordOf(keyOf('old'), []), createdAt: '2024-05-01T00:00:00.000Z' };
    const newer = { ...recordOf(keyOf('new'), []), createdAt: '2025-05-01T00:00:00.000Z' };
    await put(`${newer.key}.json`, serializeConversationRecord(newer));
    await put(`${older.key}.json`, serializeConversationRecord(older));
    await put(`${older.key}.json.3735928559`, '{"half a rec');
    await put('README.txt', 'not a record');
    expect(await listConversations(state)).toEqual([older, newer]);
  });

  it('should return nothing for a fresh state directory', async () => {
    expect(await listConversations(state)).toEqual([]);
  });
});
