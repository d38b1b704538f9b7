/**
 * A registered epoch kind (docs/adding-a-kind.md) in the Postgres store: its originals are rows
 * under its own folder name (schema version 2 takes any kind folder's name), written in the latch's
 * transaction before the record; verify --store checks them, and restore gives one back by handle.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planRecord } from '../../src/core/plan-record.js';
import { registerKind } from '../../src/rescue/latch-kinds.js';
import { restoreOriginal } from '../../src/restore/store-restore.js';
import { openPgStore, PgDb, type PgStore, verifyPgStore } from '../../src/store/index.js';
import { ASSISTANT_TEXT_KIND } from '../rescue/kinds/assistant-text/kind-record.js';
import { postgresAvailable, startPgCluster, type PgCluster } from '../support/pg-cluster.js';
import { keyOf } from '../state/fixtures/state-fixtures.js';

const textOf = (text: string): Uint8Array => new TextEncoder().encode(JSON.stringify({ type: 'text', text }));
const ORIGINAL = textOf('an old answer, kept in postgres');
const SHA = createHash('sha256').update(ORIGINAL).digest('hex');
const FACTS = { reading: { contextTokens: 900, window: 1000, epochsApplied: 0, requestBytes: 4000 }, firstPrompt: 'q', model: 'm', agentId: undefined };

function planOf(key: string, originals: boolean, bytes = ORIGINAL) {
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  const item = { messageIndex: 1, blockIndex: 0, sha256, bytes: bytes.length };
  const policy = { name: 'assistant-text', version: 1, keepRecent: 2, minBytes: 24 };
  const part = {
    tag: 'assistant_text',
    policy,
    items: [item],
    originals: originals ? [{ folder: 'assistant_text', sha256, ext: 'json' as const, bytes }] : [],
  };
  return planRecord({ key, current: undefined, facts: FACTS, threshold: 0.7, part, now: '2026-01-01T00:00:00.000Z' });
}

describe.skipIf(!postgresAvailable())('a registered kind in the Postgres store', () => {
  let cluster: PgCluster;
  let store: PgStore;
  let unregister: () => void;
  beforeAll(async () => {
    unregister = registerKind(ASSISTANT_TEXT_KIND);
    cluster = await startPgCluster();
    await new PgDb(cluster.url).migrate();
    store = await openPgStore(cluster.url);
  }, 60_000);
  afterAll(async () => {
    unregister?.();
    await store?.close();
    await cluster?.stop();
  });

  it('should keep its originals under its folder, verify, and restore one by its handle', async () => {
    const key = keyOf('registered kind');
    const plan = planOf(key, true);
    expect(await store.latch(key, () => plan)).toEqual(plan.record);
    expect(Buffer.from((await store.readOriginal('assistant_text', SHA, 'json')) ?? []).equals(Buffer.from(ORIGINAL))).toBe(true);
    expect(await store.findOriginals('assistant_text', 'json', SHA.slice(0, 12))).toEqual([SHA]);
    expect((await verifyPgStore(store.db)).problems).toEqual([]);
    expect(await restoreOriginal(store, SHA.slice(0, 12))).toMatchObject({ kind: 'restored', handle: SHA, source: 'frozen assistant text' });
  });

  it('should refuse a record naming an original it does not hold, and a folder no kind has', async () => {
    const key = keyOf('registered kind, missing');
    const other = textOf('an answer no row holds');
    await expect(store.latch(key, () => planOf(key, false, other))).rejects.toMatchObject({ code: 'STATE_BAD_PLAN' });
    const plan = planOf(key, true, other);
    const stray = { ...plan, originals: [{ ...plan.originals![0]!, folder: 'nobody' }] };
    await expect(store.latch(key, () => stray)).rejects.toMatchObject({ code: 'STATE_BAD_NAME' });
    expect(await store.readRecord(key)).toBeUndefined();
  });
});
