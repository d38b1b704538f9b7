/**
 * A latch in Postgres: the read-decide-write of latch-epoch.ts in one transaction. An advisory
 * lock on (owner, key) serializes latchers of one conversation across every replica; the record
 * is re-read under it, `decide` sees what is committed, and the plan's originals are inserted
 * (and checked present) before the record that names them, all committed at once. A replica
 * killed before COMMIT leaves nothing: no original, no record.
 */
import type pg from 'pg';
import { originalsNamedBy } from '../core/index.js';
import type { ConversationRecord, Epoch } from '../core/epoch-types.js';
import { serializeConversationRecord } from '../state/conversation-record.js';
import { crashPoint } from '../state/crash-point.js';
import { checkPlanRecord, type LatchDecision, type LatchPlan } from '../state/latch-epoch.js';
import { sha256Hex } from '../state/sha256-hex.js';
import { StateError } from '../state/state-error.js';
import { readRecordIn, writeRecordIn } from './pg-records.js';
import { checkOriginalKind, type OriginalExt, type OriginalKind } from './store-types.js';

/** One original row to insert. */
interface OriginalRow {
  readonly kind: OriginalKind;
  readonly sha256: string;
  readonly ext: OriginalExt;
  readonly bytes: Uint8Array;
}

/** Takes the transaction-scoped lock of conversation `key` of `owner` (released by COMMIT or ROLLBACK). */
export async function lockConversation(client: pg.ClientBase, owner: string, key: string): Promise<void> {
  await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`ctxshed.conversation/${owner}/${key}`]);
}

/** Inside a transaction: latches as latch-epoch.ts does, and returns the record now committed (once the caller commits). */
export async function latchIn(client: pg.ClientBase, owner: string, key: string, decide: LatchDecision): Promise<ConversationRecord | undefined> {
  await lockConversation(client, owner, key);
  const current = await readRecordIn(client, owner, key);
  const plan = await decide(current);
  if (plan === undefined) return current;
  const bytes = serializeConversationRecord(plan.record);
  const next = checkPlanRecord(key, current, JSON.parse(Buffer.from(bytes).toString('utf8')));
  await insertOriginals(client, owner, rowsOf(plan));
  if (plan.originals.length > 0) crashPoint('latch-after-first-file');
  crashPoint('latch-after-all-files');
  await checkNamedOriginals(client, owner, next.epochs.slice(current?.epochs.length ?? 0));
  await writeRecordIn(client, owner, key, next, bytes);
  return next;
}

/** The rows of a plan, each checked to hash to its name (a name never lies). */
function rowsOf(plan: LatchPlan): OriginalRow[] {
  // Each under its kind's folder (checked a kind's: the store's kind is a kind's folder).
  const rows: OriginalRow[] = plan.originals.map((o) => ({ kind: checkOriginalKind(o.folder), sha256: o.sha256, ext: o.ext, bytes: o.bytes }));
  for (const row of rows) {
    if (row.ext !== 'md' && sha256Hex(row.bytes) !== row.sha256) {
      throw new StateError('STATE_HASH_MISMATCH', `refusing to store ${row.kind} ${row.sha256}.${row.ext}: its bytes hash to ${sha256Hex(row.bytes)}`);
    }
  }
  return rows;
}

/** Inserts the originals not yet kept; content-addressed, so one already there is the same bytes. */
async function insertOriginals(client: pg.ClientBase, owner: string, rows: readonly OriginalRow[]): Promise<void> {
  if (rows.length === 0) return;
  await client.query(
    `INSERT INTO ctxshed_originals (owner, kind, sha256, ext, bytes)
     SELECT $1, k, s, e, b FROM unnest($2::text[], $3::text[], $4::text[], $5::bytea[]) AS t(k, s, e, b)
     ON CONFLICT DO NOTHING`,
    [owner, rows.map((r) => r.kind), rows.map((r) => r.sha256), rows.map((r) => r.ext), rows.map((r) => Buffer.from(r.bytes))],
  );
}

/** Throws STATE_BAD_PLAN unless every original the new epochs name is kept, at the size they say. */
async function checkNamedOriginals(client: pg.ClientBase, owner: string, epochs: readonly Epoch[]): Promise<void> {
  const wanted = namedOriginals(epochs);
  if (wanted.size === 0) return;
  const found = await client.query<{ id: string; size: number }>(
    `SELECT kind || ':' || sha256 || '.' || ext AS id, octet_length(bytes) AS size FROM ctxshed_originals
     WHERE owner = $1 AND kind || ':' || sha256 || '.' || ext = ANY($2::text[])`,
    [owner, [...wanted.keys()]],
  );
  const sizes = new Map(found.rows.map((r) => [r.id, Number(r.size)]));
  const missing = [...wanted].filter(([id, size]) => !sizes.has(id) || (size !== undefined && sizes.get(id) !== size)).map(([id]) => id);
  if (missing.length > 0) {
    throw new StateError('STATE_BAD_PLAN', `refusing to write a record that names originals not stored: ${missing.join(', ')}`);
  }
}

/** `kind:sha256.ext` of each original the epochs name, with the size it must have (undefined: any): each kind's record says. */
export function namedOriginals(epochs: readonly Epoch[]): Map<string, number | undefined> {
  return originalsNamedBy(epochs);
}
