/** Conversation records in Postgres: one row per (owner, key), holding the exact bytes a record file would. */
import type pg from 'pg';
import type { ConversationRecord } from '../core/epoch-types.js';
import { parseConversationRecord } from '../state/conversation-record.js';
import { isHex64 } from '../state/layout.js';
import { StateError } from '../state/state-error.js';
import type { StampedRecord } from './store-types.js';

interface RecordRow {
  readonly key: string;
  readonly version: string;
  readonly record: Buffer | null;
}

/** Where a record is, for messages: `postgres:<owner>/<key>` (owner `''` shows as `-`). */
export function recordWhere(owner: string, key: string): string {
  return `postgres:${owner === '' ? '-' : owner}/${key}`;
}

/** Refuses a key that is not 64 lowercase hex digits, as conversationPath does. */
export function checkKey(key: string): string {
  if (isHex64(key)) return key;
  throw new StateError('STATE_BAD_NAME', `conversation key must be 64 lowercase hex digits, got ${JSON.stringify(key.slice(0, 80))}`);
}

/** The record of `key`, or undefined; throws STATE_BAD_RECORD for one that does not check. */
export async function readRecordIn(client: pg.ClientBase, owner: string, key: string): Promise<ConversationRecord | undefined> {
  const result = await client.query<RecordRow>('SELECT key, version, record FROM ctxshed_conversations WHERE owner = $1 AND key = $2', [owner, checkKey(key)]);
  const row = result.rows[0];
  return row?.record == null ? undefined : parseConversationRecord(row.record.toString('utf8'), key, recordWhere(owner, key));
}

/** The record and its stamp (its row's version), or `'unchanged'`: the bytes are sent only when the version moved. */
export async function readIfChangedIn(client: pg.ClientBase, owner: string, key: string, stamp: string): Promise<StampedRecord | 'unchanged'> {
  const result = await client.query<RecordRow>(
    `SELECT key, version::text AS version, CASE WHEN version::text = $3 THEN NULL ELSE record END AS record
     FROM ctxshed_conversations WHERE owner = $1 AND key = $2`,
    [owner, checkKey(key), stamp],
  );
  const row = result.rows[0];
  const now = row?.version ?? '';
  if (now === stamp) return 'unchanged';
  const record = row?.record == null ? undefined : parseConversationRecord(row.record.toString('utf8'), key, recordWhere(owner, key));
  return { stamp: now, record };
}

/** Writes the record's exact bytes, its version one more than before. */
export async function writeRecordIn(client: pg.ClientBase, owner: string, key: string, record: ConversationRecord, bytes: Uint8Array): Promise<void> {
  await client.query(
    `INSERT INTO ctxshed_conversations (owner, key, format, created_at, version, record) VALUES ($1, $2, $3, $4, 1, $5)
     ON CONFLICT (owner, key) DO UPDATE SET format = $3, version = ctxshed_conversations.version + 1, record = $5`,
    [owner, key, record.format, record.createdAt, Buffer.from(bytes)],
  );
}

/** Every record of `owner`, oldest first (as listConversations orders them). */
export async function listRecordsIn(client: pg.ClientBase, owner: string): Promise<ConversationRecord[]> {
  const result = await client.query<RecordRow>('SELECT key, version, record FROM ctxshed_conversations WHERE owner = $1 ORDER BY created_at, key', [owner]);
  return result.rows.map((row) => parseConversationRecord((row.record ?? Buffer.alloc(0)).toString('utf8'), row.key, recordWhere(owner, row.key)));
}
