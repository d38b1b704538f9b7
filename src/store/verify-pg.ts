/**
 * `ctxshed verify --store postgres://…`: checks the database as verify checks a directory. Every
 * record parses and checks; every original it names is there, at the size it says; every
 * original's bytes hash to its name (a span's `.md` is its `.json` rendered). Reads only.
 */
import { upgradeRecord } from '../core/upgrade-record.js';
import { epochKindInfos, itemsOfEpoch, renderingOf } from '../core/index.js';
import { checkConversationRecord } from '../state/check-conversation-record.js';
import type { ConversationRecord } from '../state/conversation-record.js';
import { sha256Hex } from '../state/sha256-hex.js';
import type { VerifyReport } from '../state/verify-state.js';
import type { PgDb } from './pg-db.js';
import { namedOriginals } from './pg-latch.js';
import { recordWhere } from './pg-records.js';

interface OriginalRow {
  readonly owner: string;
  readonly kind: string;
  readonly sha256: string;
  readonly ext: string;
  readonly bytes: Buffer;
}

/** Checks every owner's records and originals in the store, or `owner`'s only. */
export async function verifyPgStore(db: PgDb, owner?: string): Promise<VerifyReport> {
  const checked = { elided: 0, conversations: 0, epochs: 0, blocks: 0, spans: 0 };
  const report: VerifyReport = { problems: [], notes: [], checked };
  const sizes = new Map<string, number>();
  await db.withClient(async (c) => {
    const originals = await c.query<OriginalRow>(
      'SELECT owner, kind, sha256, ext, bytes FROM ctxshed_originals WHERE $1::text IS NULL OR owner = $1 ORDER BY owner, kind, sha256, ext',
      [owner ?? null],
    );
    // The exact bytes of each original, by owner, folder and name: a `.md` is checked as their rendering.
    const exact = new Map<string, Buffer>();
    for (const row of originals.rows) {
      sizes.set(`${row.owner}/${row.kind}:${row.sha256}.${row.ext}`, row.bytes.byteLength);
      if (row.kind === 'elided') checked.elided++;
      if (row.ext === 'md') continue;
      exact.set(`${row.owner}/${row.kind}:${row.sha256}`, row.bytes);
      const actual = sha256Hex(row.bytes);
      if (actual !== row.sha256) report.problems.push(`${where(row)}: its bytes hash to ${actual}`);
    }
    for (const row of originals.rows.filter((r) => r.ext === 'md')) {
      const bytes = exact.get(`${row.owner}/${row.kind}:${row.sha256}`);
      const rendering = bytes === undefined ? undefined : renderingOf(row.kind, bytes, row.sha256);
      if (rendering !== undefined && !Buffer.from(rendering, 'utf8').equals(row.bytes)) {
        report.problems.push(`${where(row)}: is not the rendering of its ${row.kind}`);
      }
    }
    const records = await c.query<{ owner: string; key: string; record: Buffer }>(
      'SELECT owner, key, record FROM ctxshed_conversations WHERE $1::text IS NULL OR owner = $1 ORDER BY owner, key',
      [owner ?? null],
    );
    for (const row of records.rows) checkRecord(row, sizes, report);
  });
  return report;
}

function checkRecord(row: { owner: string; key: string; record: Buffer }, sizes: ReadonlyMap<string, number>, report: VerifyReport): void {
  const at = recordWhere(row.owner, row.key);
  report.checked.conversations++;
  let value: unknown;
  try {
    value = upgradeRecord(JSON.parse(row.record.toString('utf8')));
  } catch {
    report.problems.push(`${at}: is not valid JSON`);
    return;
  }
  const problems = checkConversationRecord(value, row.key);
  if (problems.length > 0) {
    report.problems.push(`${at}: ${problems.join('; ')}`);
    return;
  }
  const record = value as ConversationRecord;
  report.checked.epochs += record.epochs.length;
  for (const kind of epochKindInfos()) {
    const items = record.epochs.flatMap((epoch) => itemsOfEpoch(epoch, kind));
    if (kind.counts === 'blocks') report.checked.blocks += items.length;
    if (kind.counts === 'spans') report.checked.spans += items.length;
  }
  for (const [id, size] of namedOriginals(record.epochs)) {
    const found = sizes.get(`${row.owner}/${id}`);
    if (found === undefined) report.problems.push(`${at}: names ${id}, which is not stored`);
    else if (size !== undefined && found !== size) report.problems.push(`${at}: names ${id} of ${size} bytes, stored with ${found}`);
  }
}

function where(row: OriginalRow): string {
  return `postgres:${row.owner === '' ? '-' : row.owner}/${row.kind}/${row.sha256}.${row.ext}`;
}
