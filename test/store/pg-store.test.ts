import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GATEWAY_STUB_DIR } from '../../src/core/stub-paths.js';
import { serializeConversationRecord } from '../../src/state/conversation-record.js';
import { checkOriginals } from '../../src/rescue/original-check.js';
import { openPgStore, PgDb, type PgStore, SCHEMA_VERSION, verifyPgStore } from '../../src/store/index.js';
import { postgresAvailable, startPgCluster, type PgCluster } from '../support/pg-cluster.js';
import { appendEpochPlan, epochOf, keyOf, recordOf, shedEpochOf, spanFor, spanOriginals } from '../state/fixtures/state-fixtures.js';
import { blocksOf } from '../../src/core/epoch-items.js';

const KEY = keyOf('pg conversation');
const TEXT = 'a tool result kept in postgres\n'.repeat(60);

describe.skipIf(!postgresAvailable())('the Postgres store', () => {
  let cluster: PgCluster;
  let store: PgStore;
  beforeAll(async () => {
    cluster = await startPgCluster();
    await new PgDb(cluster.url).migrate();
    store = await openPgStore(cluster.url);
  }, 60_000);
  afterAll(async () => {
    await store?.close();
    await cluster?.stop();
  });

  it('should refuse an unmigrated database, then migrate it once and report the version', async () => {
    const url = await cluster.createDatabase('fresh');
    await expect(openPgStore(url)).rejects.toThrow(/has no ctxshed schema.*ctxshed migrate/);
    const db = new PgDb(url);
    expect(await db.migrate()).toEqual({ from: 0, to: SCHEMA_VERSION });
    expect(await db.migrate()).toEqual({ from: SCHEMA_VERSION, to: SCHEMA_VERSION });
    await db.withClient((c) => c.query('UPDATE ctxshed_schema_version SET version = version + 1'));
    await expect(openPgStore(url)).rejects.toThrow(/newer than this ctxshed knows/);
    await db.close();
  });

  it('should latch the originals and the record in one transaction, and read back the exact bytes', async () => {
    const plan = appendEpochPlan(KEY, undefined, TEXT, 3);
    expect(await store.latch(KEY, () => plan)).toEqual(plan.record);
    expect(await store.readRecord(KEY)).toEqual(plan.record);
    const file = plan.originals[0];
    expect(Buffer.from((await store.readOriginal('elided', file?.sha256 ?? '', 'txt')) ?? []).toString()).toBe(TEXT);
    const sizes = await store.originalSizes([
      { kind: 'elided', sha256: file?.sha256 ?? '', ext: 'txt' },
      { kind: 'elided', sha256: 'f'.repeat(64), ext: 'txt' },
    ]);
    expect([...sizes]).toEqual([[`elided:${file?.sha256}.txt`, Buffer.byteLength(TEXT)]]);
    const raw = await store.db.withClient((c) => c.query<{ record: Buffer }>('SELECT record FROM ctxshed_conversations WHERE key = $1', [KEY]));
    expect(raw.rows[0]?.record.equals(Buffer.from(serializeConversationRecord(plan.record)))).toBe(true);
  });

  it('should give the size and the sha256 Postgres computes of each original kept, so one changed in place is found', async () => {
    const key = keyOf('digests');
    const text = 'an original only this test changes\n'.repeat(30);
    const plan = appendEpochPlan(key, undefined, text, 1);
    await store.latch(key, () => plan);
    const sha = plan.originals[0]?.sha256 ?? '';
    const id = { kind: 'elided', sha256: sha, ext: 'txt' } as const;
    expect([...(await store.originalDigests([id, { ...id, sha256: 'f'.repeat(64) }]))]).toEqual([
      [`elided:${sha}.txt`, { size: Buffer.byteLength(text), sha256: sha }],
    ]);
    await store.db.withClient((c) => c.query("UPDATE ctxshed_originals SET bytes = overlay(bytes placing 'X'::bytea from 1 for 1) WHERE sha256 = $1", [sha]));
    expect(await checkOriginals(store, [{ id, bytes: Buffer.byteLength(text) }])).toEqual(
      new Map([[`elided:${sha}.txt`, { kind: 'changed', problem: 'original_hash', detail: expect.stringContaining('not to its name') }]]),
    );
  });

  it('should say a record is unchanged until its version moves', async () => {
    const key = keyOf('stamps');
    const none = await store.readIfChanged(key, 'x');
    expect(none).toEqual({ changed: { stamp: '', record: undefined } });
    expect(await store.readIfChanged(key, '')).toEqual({});
    await store.latch(key, () => appendEpochPlan(key, undefined, TEXT, 1));
    const first = (await store.readIfChanged(key, '')).changed;
    expect(first?.record?.epochs).toHaveLength(1);
    expect(await store.readIfChanged(key, first?.stamp ?? '')).toEqual({});
    const reading = { contextTokens: 9000, window: 20000, epochsApplied: 1, requestBytes: 40000 };
    await store.noteReading(key, reading);
    expect(await store.readIfChanged(key, first?.stamp ?? '')).toEqual({ reading });
  });

  it("should store a span's exact bytes and its rendering before the record names them", async () => {
    const key = keyOf('span');
    const { span, file } = spanFor('middle', 1, 8);
    await store.latch(key, () => ({ record: recordOf(key, [shedEpochOf(1, span)]), originals: spanOriginals(file.sha256, file.bytes) }));
    expect(await store.originalSize('span', span.sha256, 'json')).toBe(span.bytes);
    expect(await store.originalSize('span', span.sha256, 'md')).toBeGreaterThan(0);
  });

  it("should verify a span's rendering by its kind, and name one that is not its span's", async () => {
    const url = await cluster.createDatabase('rendering');
    const db = new PgDb(url);
    await db.migrate();
    const own = await openPgStore(url);
    const key = keyOf('rendered span');
    const { span, file } = spanFor('middle', 1, 8);
    await own.latch(key, () => ({ record: recordOf(key, [shedEpochOf(1, span)]), originals: spanOriginals(file.sha256, file.bytes) }));
    expect((await verifyPgStore(db)).problems).toEqual([]);
    await db.withClient((c) => c.query("UPDATE ctxshed_originals SET bytes = $1 WHERE kind = 'span' AND ext = 'md'", [Buffer.from('# not the span\n')]));
    expect((await verifyPgStore(db)).problems.join('\n')).toMatch(/is not the rendering of its span/);
    await own.close();
    await db.close();
  });

  it('should latch an epoch once when many replicas latch one conversation at once', async () => {
    const key = keyOf('contended');
    const replicas = await Promise.all([1, 2, 3].map(() => openPgStore(cluster.url)));
    let planned = 0;
    const results = await Promise.all(
      replicas.flatMap((replica, r) =>
        [0, 1, 2].map((i) =>
          replica.latch(key, (current) => {
            if (current !== undefined) return undefined; // someone latched first: theirs stands
            planned++;
            return appendEpochPlan(key, undefined, `replica ${r} latch ${i}\n`.repeat(50), 0);
          }),
        ),
      ),
    );
    await Promise.all(replicas.map((r) => r.close()));
    expect(planned).toBe(1);
    expect(new Set(results.map((r) => JSON.stringify(r))).size).toBe(1);
    expect((await store.readRecord(key))?.epochs).toHaveLength(1);
  });

  it('should leave nothing behind when a latch fails before its commit', async () => {
    const key = keyOf('rolled back');
    const plan = appendEpochPlan(key, undefined, 'never committed\n'.repeat(40), 0);
    const bad = { ...plan, originals: plan.originals.map((f) => ({ ...f, bytes: Buffer.from('other bytes') })) };
    await expect(store.latch(key, () => bad)).rejects.toThrow(/hash/);
    expect(await store.readRecord(key)).toBeUndefined();
    expect(await store.originalSize('elided', plan.originals[0]?.sha256 ?? '', 'txt')).toBeUndefined();
  });

  it('should refuse a plan that drops a latched epoch', async () => {
    const key = keyOf('forwards only');
    await store.latch(key, () => appendEpochPlan(key, undefined, TEXT, 1));
    await expect(store.latch(key, () => ({ record: recordOf(key, []), originals: [] }))).rejects.toThrow(/drops latched epochs/);
    expect((await store.readRecord(key))?.epochs).toHaveLength(1);
  });

  it('should count bring-backs under the lock', async () => {
    const key = keyOf('bring backs');
    await store.latch(key, () => appendEpochPlan(key, undefined, TEXT, 1));
    await Promise.all([store.noteBringBacks(key, ['a'.repeat(64)]), store.noteBringBacks(key, ['a'.repeat(64)])]);
    expect((await store.readRecord(key))?.bringBacks).toEqual({ ['a'.repeat(64)]: 2 });
  });

  it("should keep each owner's records and originals to that owner", async () => {
    const alice = await store.forOwner('alice');
    const bob = await store.forOwner('bob');
    const key = keyOf('owned');
    const plan = appendEpochPlan(key, undefined, 'alice only\n'.repeat(30), 1);
    await alice.latch(key, () => plan);
    expect(await bob.readRecord(key)).toBeUndefined();
    expect(await bob.originalSize('elided', plan.originals[0]?.sha256 ?? '', 'txt')).toBeUndefined();
    expect((await bob.listRecords()).map((r) => r.key)).not.toContain(key);
    expect((await alice.listRecords()).map((r) => r.key)).toEqual([key]);
    // The originals are on no disk the agent reads: the stubs name the restore tool (issue 41).
    expect(alice.stubDirs.elidedDir).toBe(GATEWAY_STUB_DIR);
    await expect(store.forOwner('../x')).rejects.toThrow(/owner id/);
  });

  it('should prune as docs/team.md says: old conversations, then the originals no record names, and verify stays clean', async () => {
    const team = fs.readFileSync(new URL('../../docs/team.md', import.meta.url), 'utf8');
    const sql = /```sql\n([\s\S]*?)```/.exec(team)?.[1] ?? '';
    const url = await cluster.createDatabase('prune');
    const migrating = new PgDb(url);
    await migrating.migrate();
    await migrating.close();
    const pruned = await openPgStore(url);
    const [oldKey, newKey] = [keyOf('old'), keyOf('new')];
    const shared = 'shared by both\n'.repeat(40);
    const oldPlan = appendEpochPlan(oldKey, undefined, 'only the old one\n'.repeat(40), 1);
    const sharedPlan = appendEpochPlan(oldKey, undefined, shared, 2);
    await pruned.latch(oldKey, () => ({
      record: {
        ...recordOf(oldKey, [epochOf(1, [...(blocksOf(oldPlan.record.epochs[0]!) ?? []), ...(blocksOf(sharedPlan.record.epochs[0]!) ?? [])])]),
        createdAt: '2026-09-01T00:00:00.000Z',
      },
      originals: [...oldPlan.originals, ...sharedPlan.originals],
    }));
    const newPlan = appendEpochPlan(newKey, undefined, shared, 2);
    await pruned.latch(newKey, () => ({ record: { ...newPlan.record, createdAt: '2026-11-01T00:00:00.000Z' }, originals: newPlan.originals }));
    await pruned.db.withClient((c) => c.query(sql));
    expect(await pruned.readRecord(oldKey)).toBeUndefined();
    expect(await pruned.readRecord(newKey)).toBeDefined();
    expect(await pruned.originalSize('elided', oldPlan.originals[0]?.sha256 ?? '', 'txt')).toBeUndefined();
    expect(await pruned.originalSize('elided', newPlan.originals[0]?.sha256 ?? '', 'txt')).toBeDefined();
    expect((await verifyPgStore(pruned.db)).problems).toEqual([]);
    await pruned.close();
  });

  it('should never show the password of an unreachable store', async () => {
    const url = 'postgres://user:s3cretpass@127.0.0.1:1/db';
    const error = await openPgStore(url).catch((e: unknown) => e);
    expect(String((error as Error).message)).toMatch(/unavailable/);
    expect(String((error as Error).message)).not.toContain('s3cretpass');
    expect(String((error as Error).message)).toContain('***');
  });
  it('should answer a read while every latch it can hold is in flight: transactions never take the last connections', async () => {
    let release = (): void => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    // Twelve latches, each holding its transaction open until released: more than the pool's 8.
    const latches = Array.from({ length: 12 }, (_, i) =>
      store.latch(keyOf(`crowd ${i}`), async () => {
        await held;
        return undefined;
      }),
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await store.readRecord(KEY)).toBeDefined();
    release();
    await Promise.all(latches);
  });
});
