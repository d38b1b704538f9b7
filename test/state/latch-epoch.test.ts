import fs from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { serializeConversationRecord } from '../../src/state/conversation-record.js';
import { latchEpoch } from '../../src/state/latch-epoch.js';
import { readConversation } from '../../src/state/read-conversation.js';
import { verifyState } from '../../src/state/verify-state.js';
import {
  appendEpochPlan,
  blockFor,
  epochOf,
  keyOf,
  modeOf,
  recordOf,
  shedEpochOf,
  spanFor,
  spanOriginals,
  withUmask,
  useStateDir,
} from './fixtures/state-fixtures.js';
import { spawnFixture, spawnFixtureDirect, waitFixture } from './fixtures/run-tsx.js';
import { blocksOf } from '../../src/core/epoch-items.js';

const KEY = keyOf('conversation');
const TEXT = 'a tool result\n'.repeat(100);

const dirs = useStateDir();

const recordFile = (): string => path.join(dirs.state.conversationsDir, `${KEY}.json`);
const exists = (file: string): Promise<boolean> =>
  fs.lstat(file).then(
    () => true,
    () => false,
  );

describe('latchEpoch', () => {
  it('should write the elided files and the record, and return the record on disk', async () => {
    const plan = appendEpochPlan(KEY, undefined, TEXT, 7);
    const written = await withUmask(0o000, () => latchEpoch(dirs.state, KEY, () => plan));
    expect(written).toEqual(plan.record);
    expect(await readConversation(dirs.state, KEY)).toEqual(plan.record);
    const file = plan.originals[0];
    expect(await fs.readFile(path.join(dirs.state.elidedDir, `${file?.sha256}.txt`), 'utf8')).toBe(TEXT);
    expect(await modeOf(recordFile())).toBe(0o600);
    expect(await fs.readFile(recordFile(), 'utf8')).toBe(Buffer.from(serializeConversationRecord(plan.record)).toString());
    expect((await verifyState(dirs.tmp)).problems).toEqual([]);
  });

  it("should write a shed epoch's span files before its record", async () => {
    const { span, file } = spanFor('middle', 1, 8);
    const plan = { record: recordOf(KEY, [shedEpochOf(1, span)]), originals: spanOriginals(file.sha256, file.bytes) };

    await latchEpoch(dirs.state, KEY, () => plan);

    expect(await fs.readFile(path.join(dirs.state.spansDir, `${span.sha256}.json`))).toEqual(file.bytes);
    expect(await exists(path.join(dirs.state.spansDir, `${span.sha256}.md`))).toBe(true);
    expect(await readConversation(dirs.state, KEY)).toEqual(plan.record);
  });

  it('should write no record when a span does not hash to its name, or names a span never written', async () => {
    const { span, file } = spanFor('middle', 1, 8);

    await expect(
      latchEpoch(dirs.state, KEY, () => ({ record: recordOf(KEY, [shedEpochOf(1, span)]), originals: spanOriginals(file.sha256, Buffer.from('x')) })),
    ).rejects.toMatchObject({ code: 'STATE_HASH_MISMATCH' });
    await expect(latchEpoch(dirs.state, KEY, () => ({ record: recordOf(KEY, [shedEpochOf(1, span)]), originals: [] }))).rejects.toMatchObject({
      code: 'STATE_BAD_PLAN',
    });
    expect(await exists(recordFile())).toBe(false);
  });

  it('should hand decide the record as it is on disk now, not as the caller last saw it', async () => {
    const theirs = appendEpochPlan(KEY, undefined, 'written by another process', 0);
    await latchEpoch(dirs.state, KEY, () => theirs);
    let seen: unknown;
    const mine = await latchEpoch(dirs.state, KEY, (current) => {
      seen = current;
      return appendEpochPlan(KEY, current, TEXT, 1);
    });
    expect(seen).toEqual(theirs.record);
    expect(mine?.epochs.map((epoch) => epoch.n)).toEqual([1, 2]);
  });

  it('should write nothing and return the current record when decide declines', async () => {
    expect(await latchEpoch(dirs.state, KEY, () => undefined)).toBeUndefined();
    expect(await exists(recordFile())).toBe(false);
    const first = await latchEpoch(dirs.state, KEY, (current) => appendEpochPlan(KEY, current, TEXT, 0));
    expect(await latchEpoch(dirs.state, KEY, async () => undefined)).toEqual(first);
  });

  it('should write no record when a planned file does not hash to its name', async () => {
    const plan = appendEpochPlan(KEY, undefined, TEXT, 0);
    const lying = { ...plan, originals: plan.originals.map((file) => ({ ...file, bytes: Buffer.from('other') })) };
    await expect(latchEpoch(dirs.state, KEY, () => lying)).rejects.toMatchObject({ code: 'STATE_HASH_MISMATCH' });
    expect(await exists(recordFile())).toBe(false);
  });

  it('should write no record that names a file neither planned nor on disk', async () => {
    const plan = { ...appendEpochPlan(KEY, undefined, TEXT, 0), originals: [] };
    await expect(latchEpoch(dirs.state, KEY, () => plan)).rejects.toMatchObject({ code: 'STATE_BAD_PLAN' });
    expect(await exists(recordFile())).toBe(false);
  });

  it('should accept a block whose file an earlier latch already wrote', async () => {
    const first = await latchEpoch(dirs.state, KEY, () => appendEpochPlan(KEY, undefined, TEXT, 0));
    const again = blockFor(TEXT, 1).block;
    const plan = { record: recordOf(KEY, [...(first?.epochs ?? []), epochOf(2, [again])]), originals: [] };
    expect((await latchEpoch(dirs.state, KEY, () => plan))?.epochs).toHaveLength(2);
  });

  it('should refuse a plan that drops or rewrites a latched epoch, keeping the record', async () => {
    const first = await latchEpoch(dirs.state, KEY, () => appendEpochPlan(KEY, undefined, TEXT, 0));
    const dropped = { record: recordOf(KEY, []), originals: [] };
    await expect(latchEpoch(dirs.state, KEY, () => dropped)).rejects.toMatchObject({ code: 'STATE_BAD_PLAN' });
    const rewritten = appendEpochPlan(KEY, undefined, 'another text', 0);
    await expect(latchEpoch(dirs.state, KEY, () => rewritten)).rejects.toMatchObject({
      code: 'STATE_BAD_PLAN',
      message: expect.stringContaining('changes latched epoch #1'),
    });
    expect(await readConversation(dirs.state, KEY)).toEqual(first);
  });

  it('should accept latched epochs rebuilt with their keys in another order', async () => {
    const first = await latchEpoch(dirs.state, KEY, () => appendEpochPlan(KEY, undefined, TEXT, 0));
    const reordered = (first?.epochs ?? []).map((epoch) => Object.fromEntries(Object.entries(epoch).reverse()));
    const next = appendEpochPlan(KEY, { ...recordOf(KEY, []), epochs: reordered as never }, 'more', 1);
    expect((await latchEpoch(dirs.state, KEY, () => next))?.epochs).toHaveLength(2);
  });

  it('should refuse a record for another key or with misnumbered epochs', async () => {
    const other = appendEpochPlan(keyOf('other'), undefined, TEXT, 0);
    await expect(latchEpoch(dirs.state, KEY, () => other)).rejects.toMatchObject({ code: 'STATE_BAD_PLAN' });
    const { block, file } = blockFor(TEXT, 0);
    const skipped = { record: recordOf(KEY, [epochOf(2, [block])]), originals: [file] };
    await expect(latchEpoch(dirs.state, KEY, () => skipped)).rejects.toMatchObject({ code: 'STATE_BAD_PLAN' });
    expect(await exists(recordFile())).toBe(false);
  });

  it('should pass on an error from decide and release the lock', async () => {
    await expect(latchEpoch(dirs.state, KEY, () => Promise.reject(new Error('decide failed')))).rejects.toThrow('decide failed');
    expect(await exists(dirs.state.lockPath)).toBe(false);
  });
});

describe('latchEpoch across processes', () => {
  it('should let two racing processes latch epochs 1..N with none lost or duplicated', async () => {
    const target = 24;
    const startAt = String(Date.now() + 1_500); // both tsx processes are up by then
    const workers = ['A', 'B'].map((name) => waitFixture(spawnFixture('latch-worker.ts', [dirs.tmp, KEY, String(target), name, startAt])));
    const results = await Promise.all(workers);
    for (const result of results) expect(result, result.stderr).toMatchObject({ code: 0, signal: null });
    const latched = results.map((result) => (JSON.parse(result.stdout) as { latched: number }).latched);
    // Each process counts the latches it wrote; had the lock failed, two would have written the
    // same epoch number, one overwriting the other, and the counts would add up to more than N.
    expect(latched.reduce((a, b) => a + b, 0)).toBe(target);
    const record = await readConversation(dirs.state, KEY);
    expect(record?.epochs.map((epoch) => epoch.n)).toEqual(Array.from({ length: target }, (_, i) => i + 1));
    expect(record?.epochs.map((epoch) => blocksOf(epoch)[0]?.ordinal)).toEqual(Array.from({ length: target }, (_, i) => i));
    const report = await verifyState(dirs.tmp);
    expect(report.problems).toEqual([]);
    expect(report.checked).toMatchObject({ conversations: 1, epochs: target, blocks: target });
  }, 60_000);

  it('should leave a state directory that verifies and continues after a kill -9 mid-latch', async () => {
    const child = spawnFixtureDirect('latch-worker.ts', [dirs.tmp, KEY, '100000', 'K', '0']);
    const ended = waitFixture(child);
    // Let it latch a few epochs, then kill it at an arbitrary instant.
    for (let i = 0; i < 400 && ((await readConversation(dirs.state, KEY).catch(() => undefined))?.epochs.length ?? 0) < 5; i++) {
      await sleep(25);
    }
    await sleep(Math.random() * 40);
    child.kill('SIGKILL');
    expect(await ended).toMatchObject({ signal: 'SIGKILL' });
    const report = await verifyState(dirs.tmp);
    expect(report.problems).toEqual([]);
    const before = (await readConversation(dirs.state, KEY))?.epochs.length ?? 0;
    expect(before).toBeGreaterThanOrEqual(5);
    // A lock the killed process held goes stale after 10 s and is taken over.
    const after = await latchEpoch(dirs.state, KEY, (current) => appendEpochPlan(KEY, current, TEXT, before));
    expect(after?.epochs).toHaveLength(before + 1);
    expect((await verifyState(dirs.tmp)).problems).toEqual([]);
  }, 60_000);
});
