/**
 * What the restore routes read through a store (restore/store-restore.ts), on both stores: the
 * originals a handle prefix names, an owner's namespace only if it has one (a read creates
 * nothing), and restore and spans answered from the store's own reads.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderSpanMarkdown } from '../../src/core/shed/render-span-markdown.js';
import { listRestorable } from '../../src/restore/list-restorable.js';
import { listOriginals, restoreOriginal } from '../../src/restore/store-restore.js';
import { openStateDir } from '../../src/state/open-state-dir.js';
import { FsStore, fsStore, openPgStore, PgDb, type ConversationStore, type PgStore } from '../../src/store/index.js';
import { postgresAvailable, startPgCluster, type PgCluster } from '../support/pg-cluster.js';
import { appendEpochPlan, keyOf, makeTempDir, recordOf, removeTempDir, shedEpochOf, spanFor, spanOriginals } from '../state/fixtures/state-fixtures.js';

const TEXT = 'a tool result to give back\n'.repeat(50);

/** One store under test: its root namespace, and whether an owner left any trace. */
interface Subject {
  readonly root: ConversationStore;
  traceOf(owner: string): Promise<boolean>;
}

/** Latches a block epoch and a span epoch for `owner`; the block's and the span's sha256. */
async function latchBoth(store: ConversationStore): Promise<{ block: string; span: string; key: string; spanBytes: Uint8Array }> {
  const key = keyOf(`reads ${store.owner}`);
  const plan = appendEpochPlan(key, undefined, TEXT, 0);
  await store.latch(key, () => plan);
  const { span, file } = spanFor('kept span', 1, 6);
  await store.latch(key, (current) => ({
    record: recordOf(key, [...(current?.epochs ?? []), shedEpochOf(2, span)]),
    originals: spanOriginals(file.sha256, file.bytes),
  }));
  return { block: plan.originals[0]!.sha256, span: span.sha256, key, spanBytes: file.bytes };
}

function readsOf(name: string, open: () => Promise<Subject>, close: () => Promise<void>): void {
  describe(`reads through the ${name} store`, () => {
    let subject: Subject;
    let alice: ConversationStore;
    let kept: Awaited<ReturnType<typeof latchBoth>>;
    beforeAll(async () => {
      subject = await open();
      alice = await subject.root.forOwner('alice');
      kept = await latchBoth(alice);
    }, 60_000);
    afterAll(close);

    it('should find the originals a prefix names, by kind and extension, sorted', async () => {
      expect(await alice.findOriginals('elided', 'txt', kept.block.slice(0, 12))).toEqual([kept.block]);
      expect(await alice.findOriginals('elided', 'txt', '')).toEqual([kept.block]);
      expect(await alice.findOriginals('span', 'json', kept.span)).toEqual([kept.span]);
      expect(await alice.findOriginals('span', 'md', '')).toEqual([kept.span]);
      expect(await alice.findOriginals('elided', 'json', '')).toEqual([]);
      expect(await alice.findOriginals('span', 'json', kept.block)).toEqual([]);
      expect(await (await subject.root.forOwner('bob')).findOriginals('elided', 'txt', '')).toEqual([]);
      await expect(alice.findOriginals('elided', 'txt', "x' OR 1=1")).rejects.toThrow(/prefix/);
    });

    it('should open an owner for a read only if it has one, and create nothing', async () => {
      expect((await subject.root.existingOwner('alice'))?.owner).toBe('alice');
      const carol = await subject.root.existingOwner('carol');
      if (carol !== undefined) {
        expect(await carol.findOriginals('elided', 'txt', '')).toEqual([]);
        expect(await carol.listRecords()).toEqual([]);
      }
      expect(await subject.traceOf('carol')).toBe(false);
      await expect(subject.root.existingOwner('../x')).rejects.toThrow(/owner id/);
    });

    it("should restore a block's and a span's verified text, and nothing of another owner's", async () => {
      const block = await restoreOriginal(alice, kept.block.slice(0, 16));
      expect(block).toMatchObject({ kind: 'restored', handle: kept.block, source: 'elided tool result' });
      expect(Buffer.from((block as { bytes: Uint8Array }).bytes).toString('utf8')).toBe(TEXT);
      const span = await restoreOriginal(alice, kept.span);
      expect(span).toMatchObject({ kind: 'restored', source: 'shed span', rendering: renderSpanMarkdown(kept.spanBytes, kept.span) });
      expect(await restoreOriginal(await subject.root.forOwner('bob'), kept.block)).toEqual({ kind: 'unknown', prefix: kept.block });
      expect(await restoreOriginal(alice, 'abc')).toMatchObject({ kind: 'invalid' });
    });

    it('should list what an owner can restore, and nothing to another', async () => {
      const list = await listOriginals(alice);
      expect(list.unreadable).toEqual([]);
      expect(list.conversations.map((c) => c.key)).toEqual([kept.key]);
      const [conversation] = list.conversations;
      expect(conversation?.blocks.map((b) => [b.sha256, b.present, b.sealed])).toEqual([[kept.block, true, false]]);
      expect(conversation?.spans.map((s) => [s.sha256, s.present, s.epoch])).toEqual([[kept.span, true, 2]]);
      expect(await listOriginals(await subject.root.forOwner('bob'))).toEqual({ conversations: [], unreadable: [] });
      if (alice instanceof FsStore) expect(list).toEqual(await listRestorable(alice.state));
    });
  });
}

let dir = '';
readsOf(
  'state directory',
  async () => {
    dir = await makeTempDir();
    const root = new FsStore(await openStateDir(dir));
    return { root, traceOf: async (owner) => fs.existsSync(path.join(dir, 'owners', owner)) };
  },
  () => removeTempDir(dir),
);

describe.skipIf(!postgresAvailable())('on Postgres', () => {
  let cluster: PgCluster;
  let store: PgStore;
  readsOf(
    'Postgres',
    async () => {
      cluster = await startPgCluster();
      await new PgDb(cluster.url).migrate();
      store = await openPgStore(cluster.url);
      const traceOf = async (owner: string): Promise<boolean> => {
        const counts = await store.db.withClient((c) =>
          c.query<{ n: string }>(
            `SELECT (SELECT count(*) FROM ctxshed_conversations WHERE owner = $1) + (SELECT count(*) FROM ctxshed_originals WHERE owner = $1)
             + (SELECT count(*) FROM ctxshed_readings WHERE owner = $1) AS n`,
            [owner],
          ),
        );
        return Number(counts.rows[0]?.n) > 0;
      };
      return { root: store, traceOf };
    },
    async () => {
      await store?.close();
      await cluster?.stop();
    },
  );
});

describe("the state directory store's originals", () => {
  it('should not count a symlink in spans/ as a span file, nor read through it (ctxshed never follows one)', async () => {
    const dir = await makeTempDir();
    try {
      const state = await openStateDir(dir);
      const store = fsStore(state);
      const { span, file } = spanFor('linked span', 1, 4);
      const outside = path.join(dir, 'outside.json');
      fs.writeFileSync(outside, file.bytes);
      fs.mkdirSync(state.spansDir, { recursive: true, mode: 0o700 });
      fs.symlinkSync(outside, path.join(state.spansDir, `${span.sha256}.json`));
      expect(await store.originalSize('span', span.sha256, 'json')).toBeUndefined();
      expect(await store.readOriginal('span', span.sha256, 'json')).toBeUndefined();
    } finally {
      await removeTempDir(dir);
    }
  });
});
