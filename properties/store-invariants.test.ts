/**
 * The invariants through the engine, on both stores (src/store/): the state directory and
 * Postgres. For the same generated conversation, each store gives the same bytes; a fresh engine
 * on the same store (a restart, or another replica) gives them again, and two requests of the
 * conversation agree up to the first message where they differ; every original a stub names is
 * in the store when the stub leaves; and two engines latching one conversation at once latch one
 * epoch. The Postgres half skips without Postgres (and fails under CI, test/support/pg-cluster.ts).
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { latchedOf, engineSettingsOf, EpochEngine, type EngineSettings, type SettingsGiven } from '../src/rescue/index.js';
import { openStateDir } from '../src/state/open-state-dir.js';
import { fsStore, PgDb, PgStore, type ConversationStore } from '../src/store/index.js';
import { postgresAvailable, startPgCluster, type PgCluster } from '../test/support/pg-cluster.js';
import { conversationArb } from './arbitraries/index.js';
import type { ClientRequest } from './arbitraries/client-growth.js';
import { commonPrefixLength } from './support/bytes.js';
import { indexOf } from './support/rewrite-support.js';

// A tiny window and no minimum gain: any eligible block latches, so epochs latch often.
const GIVEN: SettingsGiven = { window: 1000, minGainFraction: 0, keepRecent: 1, minBytes: 1 };
const SETTINGS: EngineSettings = engineSettingsOf(GIVEN);
const NEVER_LATCH: EngineSettings = engineSettingsOf({ ...GIVEN, threshold: 1e9 });
const FULL = { inputTokens: 990, cacheCreationInputTokens: 0, cacheReadInputTokens: 0, outputTokens: 1 };
const STUB_NAME = /\/(elided|spans)\/([0-9a-f]{64})\.(txt|json|md)/g;

interface Store {
  readonly base: string;
  readonly root: string;
  readonly store: ConversationStore;
}

type MakeStore = (run: number, base?: string) => Promise<Store>;

// Owner `run<N>` of a state directory at `base` is `<base>/owners/run<N>/`; the Postgres store's
// stubs for that owner name the same folders, so the two stores' bytes compare exactly.
const fsStores: MakeStore = async (run) => {
  const base = await fs.mkdtemp(path.join(os.tmpdir(), 'ctxshed-store-prop-'));
  const store = await fsStore(await openStateDir(base)).forOwner(`run${run}`);
  return { base, root: path.join(base, 'owners', `run${run}`), store };
};

let cluster: PgCluster | undefined;
let db: PgDb | undefined;
// Each run its own owner; the stubs name the run's own directory, so both stores' bytes compare.
const pgStores: MakeStore = async (run, base) => {
  const root = path.join(base as string, 'owners', `run${run}`);
  await fs.mkdir(root, { recursive: true });
  return { base: base as string, root, store: new PgStore(db as PgDb, `run${run}`, base) };
};

/** The bodies the engine sends for each request, a full reading after each; checks every stub's original is stored. */
async function drive(engine: EpochEngine, store: ConversationStore, requests: readonly ClientRequest[], observe = true): Promise<Uint8Array[]> {
  const out: Uint8Array[] = [];
  for (const request of requests) {
    const prepared = await engine.prepare({ method: 'POST', target: '/v1/messages', headers: {}, body: request.bytes });
    await expectOriginalsStored(store, request.bytes, prepared.body);
    if (observe) engine.observe(prepared, { status: 200, usage: FULL });
    out.push(prepared.body);
  }
  return out;
}

/** Every original a stub of `sent` names (and `given` did not) is in the store, at the moment it is sent. */
async function expectOriginalsStored(store: ConversationStore, given: Uint8Array, sent: Uint8Array): Promise<void> {
  const before = Buffer.from(given).toString('utf8');
  for (const [, dir, sha, ext] of Buffer.from(sent).toString('utf8').matchAll(STUB_NAME)) {
    if (before.includes(`${sha}.${ext}`)) continue;
    const kind = dir === 'spans' ? 'span' : 'elided';
    expect(await store.originalSize(kind, sha as string, ext as 'txt' | 'json' | 'md'), `${dir}/${sha}.${ext}`).toBeDefined();
  }
}

/** Two requests A (earlier) and B agree on every byte before the end of A's second-to-last message. */
function expectSharedPrefix(requests: readonly ClientRequest[], out: readonly Uint8Array[]): void {
  for (let i = 0; i + 1 < out.length; i++) {
    const a = out[i] as Uint8Array;
    const b = out[i + 1] as Uint8Array;
    const k = (requests[i] as ClientRequest).messageCount - 1;
    const index = indexOf(a);
    const cut = k <= 0 ? index.messagesSpan.start : (index.messages[k - 1]?.end ?? 0);
    expect(commonPrefixLength(a, b)).toBeGreaterThanOrEqual(cut);
  }
}

async function sameBytesOnBothStores(requests: readonly ClientRequest[], run: number): Promise<Uint8Array[][]> {
  const results: Uint8Array[][] = [];
  let base: string | undefined;
  for (const make of [fsStores, pgStores]) {
    const made = await make(run, base);
    base = made.base;
    const { root, store } = made;
    // The engine's own state directory (previews, and the record watch of the state directory's store).
    const state = await openStateDir(root);
    results.push(await drive(new EpochEngine(state, SETTINGS, { store }), store, requests));
    // A restart, or another replica: the epochs as stored, nothing latched anew.
    const again = await drive(new EpochEngine(state, NEVER_LATCH, { store }), store, requests, false);
    expectSharedPrefix(requests, again);
    results.push(again);
  }
  await fs.rm(base as string, { recursive: true, force: true });
  return results;
}

describe.skipIf(!postgresAvailable())('the engine on both stores', () => {
  beforeAll(async () => {
    cluster = await startPgCluster();
    db = new PgDb(cluster.url);
    await db.migrate();
  }, 60_000);
  afterAll(async () => {
    await db?.close();
    await cluster?.stop();
  });

  it('should send the same bytes for the same conversation from either store, again after a restart, keeping the shared prefix', async () => {
    let run = 0;
    let rewritten = 0;
    await fc.assert(
      fc.asyncProperty(conversationArb(6, 2), async (requests) => {
        const [fsFirst, fsAgain, pgFirst, pgAgain] = await sameBytesOnBothStores(requests, run++);
        for (const [i, body] of (fsFirst as Uint8Array[]).entries()) {
          expect(Buffer.from(pgFirst?.[i] ?? []).equals(Buffer.from(body)), `request ${i + 1}`).toBe(true);
          expect(Buffer.from(pgAgain?.[i] ?? []).equals(Buffer.from(fsAgain?.[i] ?? [])), `request ${i + 1} again`).toBe(true);
          if (!Buffer.from(body).equals(Buffer.from((requests[i] as ClientRequest).bytes))) rewritten++;
        }
      }),
      { numRuns: 20 },
    );
    // Not vacuous: epochs latched and stubs went out.
    expect(rewritten).toBeGreaterThan(0);
  }, 120_000);

  it('should latch one epoch when two engines latch one conversation at once, on either store', async () => {
    let run = 1000;
    let won = 0;
    await fc.assert(
      fc.asyncProperty(conversationArb(6, 3), async (requests) => {
        for (const make of [fsStores, pgStores]) {
          const { base, root, store } = await make(run++, await fs.mkdtemp(path.join(os.tmpdir(), 'ctxshed-store-prop-')));
          const state = await openStateDir(root);
          const [one, two] = [new EpochEngine(state, SETTINGS, { store }), new EpochEngine(state, SETTINGS, { store })];
          const last = requests[requests.length - 1] as ClientRequest;
          const first = requests[0] as ClientRequest;
          for (const engine of [one, two]) {
            const p = await engine.prepare({ method: 'POST', target: '/v1/messages', headers: {}, body: first.bytes });
            engine.observe(p, { status: 200, usage: FULL });
          }
          const request = { method: 'POST', target: '/v1/messages', headers: {}, body: last.bytes };
          const outcomes = await Promise.all([one.prepare(request), two.prepare(request)]);
          const latched = outcomes.filter((p) => latchedOf(p) !== undefined).length;
          const conversation = outcomes[0]?.key === undefined ? undefined : await store.readRecord(outcomes[0].key);
          expect(latched).toBe(conversation?.epochs.length ?? 0);
          expect(latched).toBeLessThanOrEqual(1);
          won += latched;
          await fs.rm(base, { recursive: true, force: true });
        }
      }),
      { numRuns: 15 },
    );
    expect(won).toBeGreaterThan(0);
  }, 120_000);
});
