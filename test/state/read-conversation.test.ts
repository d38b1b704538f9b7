import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { serializeConversationRecord } from '../../src/state/conversation-record.js';
import { listConversations, readConversation } from '../../src/state/read-conversation.js';
import { epochOf, keyOf, recordOf, useStateDir } from './fixtures/state-fixtures.js';

const dirs = useStateDir();

async function put(name: string, content: string | Uint8Array): Promise<void> {
  await fs.writeFile(path.join(dirs.state.conversationsDir, name), content, { mode: 0o600 });
}

describe('readConversation', () => {
  it('should return undefined for a conversation without a record', async () => {
    expect(await readConversation(dirs.state, keyOf('none'))).toBeUndefined();
  });

  it('should read a record', async () => {
    const record = recordOf(keyOf('a'), [epochOf(1, [])]);
    await put(`${record.key}.json`, serializeConversationRecord(record));
    expect(await readConversation(dirs.state, record.key)).toEqual(record);
  });

  it('should throw STATE_BAD_RECORD for a broken record rather than guess', async () => {
    await put(`${keyOf('a')}.json`, '{"format":"ctxshed.conv');
    await expect(readConversation(dirs.state, keyOf('a'))).rejects.toMatchObject({ code: 'STATE_BAD_RECORD' });
  });

  it('should refuse to read a record through a symlink', async () => {
    const outside = path.join(dirs.tmp, 'outside.json');
    await fs.writeFile(outside, serializeConversationRecord(recordOf(keyOf('a'), [])));
    await fs.symlink(outside, path.join(dirs.state.conversationsDir, `${keyOf('a')}.json`));
    await expect(readConversation(dirs.state, keyOf('a'))).rejects.toMatchObject({ code: 'STATE_SYMLINK' });
  });

  it('should refuse a key that is not 64 lowercase hex digits', async () => {
    await expect(readConversation(dirs.state, '../../etc/passwd')).rejects.toMatchObject({ code: 'STATE_BAD_NAME' });
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
    expect(await listConversations(dirs.state)).toEqual([older, newer]);
  });

  it('should return nothing for a fresh state directory', async () => {
    expect(await listConversations(dirs.state)).toEqual([]);
  });
});
