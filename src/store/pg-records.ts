/** Conversation records in Postgres: one row per (owner, key), holding the exact bytes a record file would. */
import type pg from 'pg';
import type { ConversationRecord } from '../core/epoch-types.js';
import { parseConversationRecord } from '../state/conversation-record.js';
import { isHex64 } from '../state/layout.js';
import { StateError } from '../state/state-error.js';
import type { FullnessReading } from '../core/fullness-reading.js';
import type { RecordRead } from './store-types.js';

interface RecordRow {
  readonly key: string;
  readonly version: string | null;
  readonly record: Buffer | null;
  readonly reading?: FullnessReading | null;
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
export async function readIfChangedIn(client: pg.ClientBase, owner: string, key: string, stamp: string): Promise<RecordRead> {
  const result = await client.query<RecordRow>(
    `SELECT q.k AS key, c.version::text AS version, CASE WHEN c.version::text = $3 THEN NULL ELSE c.record END AS record, r.reading
     FROM (SELECT $1::text AS o, $2::text AS k) q
     LEFT JOIN ctxshed_conversations c ON c.owner = q.o AND c.key = q.k
     LEFT JOIN ctxshed_readings r ON r.owner = q.o AND r.key = q.k`,
    [owner, checkKey(key), stamp],
  );
  const row = result.rows[0];
  const reading = row?.reading == null ? {} : { reading: row.reading };
  const now = row?.version ?? '';
  if (now === stamp) return reading;
  const record = row?.record == null ? undefined : parseConversationRecord(row.record.toString('utf8'), key, recordWhere(owner, key));
  return { changed: { stamp: now, record }, ...reading };
}

/** Keeps the conversation's last usage reading (any replica's latest write wins). */
export async function writeReadingIn(client: pg.ClientBase, owner: string, key: string, reading: FullnessReading): Promise<void> {
  await client.query(
    `INSERT INTO ctxshed_readings (owner, key, reading) VALUES ($1, $2, $3)
     ON CONFLICT (owner, key) DO UPDATE SET reading = $3`,
    [owner, checkKey(key), JSON.stringify(reading)],
  );
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
