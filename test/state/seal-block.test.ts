import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FrozenBlock } from '../../src/core/epoch-types.js';
import { writeElidedFile } from '../../src/state/elided-file.js';
import { latchEpoch } from '../../src/state/latch-epoch.js';
import { openStateDir, type StateDir } from '../../src/state/open-state-dir.js';
import { listSealedShas, readSeal, sealBlock, unsealBlock } from '../../src/state/seal-block.js';
import { sha256Hex } from '../../src/state/sha256-hex.js';
import { blockFor, epochOf, keyOf, makeTempDir, modeOf, recordOf, removeTempDir, withUmask } from './fixtures/state-fixtures.js';

const KEY = keyOf('conversation');
const TEXT = 'secret output\n'.repeat(100);
const SHA = sha256Hex(Buffer.from(TEXT));
const NOW = '2026-01-02T03:04:05.000Z';

let tmp: string;
let state: StateDir;
beforeEach(async () => {
  tmp = await makeTempDir();
  state = await openStateDir(tmp);
  await latchEpoch(state, KEY, () => {
    const { block, file } = blockFor(TEXT, 0);
    return { record: recordOf(KEY, [epochOf(1, [block])]), originals: [file] };
  });
});
afterEach(async () => {
  await removeTempDir(tmp);
});

const exists = (file: string): Promise<boolean> =>
  fs.lstat(file).then(
    () => true,
    () => false,
  );

describe('sealBlock', () => {
  it('should move the text to sealed/ (0700, file 0600), record why and when, and keep its bytes', async () => {
    const outcome = await withUmask(0o000, () => sealBlock(state, SHA, { reason: 'holds a token', now: NOW }));

    expect(outcome).toEqual({
      kind: 'sealed',
      record: { format: 'ctxshed.seal/1', sha256: SHA, bytes: TEXT.length, reason: 'holds a token', sealedAt: NOW, raw: [] },
    });
    expect(await exists(path.join(state.elidedDir, `${SHA}.txt`))).toBe(false);
    expect(await fs.readFile(path.join(state.sealedDir, `${SHA}.txt`), 'utf8')).toBe(TEXT);
    expect(await modeOf(state.sealedDir)).toBe(0o700);
    expect(await modeOf(path.join(state.sealedDir, `${SHA}.seal.json`))).toBe(0o600);
    expect(await readSeal(state, SHA)).toEqual(outcome.kind === 'sealed' ? outcome.record : undefined);
    expect(await listSealedShas(state)).toEqual(new Set([SHA]));
  });

  it('should say already_sealed the second time and change nothing', async () => {
    await sealBlock(state, SHA, { reason: null, now: NOW });
    const again = await sealBlock(state, SHA, { reason: 'other', now: '2027-01-01T00:00:00.000Z' });

    expect(again).toMatchObject({ kind: 'already_sealed', record: { reason: null, sealedAt: NOW } });
  });

  it('should answer unknown for a sha256 no elided file has', async () => {
    expect(await sealBlock(state, 'f'.repeat(64), { reason: null, now: NOW })).toEqual({ kind: 'unknown' });
    expect(await exists(state.sealedDir)).toBe(false);
  });

  it('should refuse a name that is not a sha256', async () => {
    await expect(sealBlock(state, '../x', { reason: null, now: NOW })).rejects.toMatchObject({ code: 'STATE_BAD_NAME' });
  });

  it('should refuse to seal a file whose bytes no longer match its name', async () => {
    await fs.writeFile(path.join(state.elidedDir, `${SHA}.txt`), 'tampered');
    await expect(sealBlock(state, SHA, { reason: null, now: NOW })).rejects.toMatchObject({ code: 'STATE_HASH_MISMATCH' });
  });

  it('should move the exact-JSON file of a block that has one, and bring it back on unseal', async () => {
    const raw = Buffer.from(JSON.stringify(TEXT).replace('s', '\\u0073'));
    const rawSha = sha256Hex(raw);
    await writeElidedFile(state, rawSha, raw, 'json');
    const key2 = keyOf('second');
    const { block } = blockFor(TEXT, 0);
    const withRaw: FrozenBlock = { ...block, rawSha256: rawSha, jsonBytes: raw.length, jsonSha256: rawSha };
    await latchEpoch(state, key2, () => ({ record: recordOf(key2, [epochOf(1, [withRaw])]), originals: [] }));

    const sealed = await sealBlock(state, SHA, { reason: null, now: NOW });
    expect(sealed).toMatchObject({ kind: 'sealed', record: { raw: [rawSha] } });
    expect(await exists(path.join(state.elidedDir, `${rawSha}.json`))).toBe(false);
    expect(await fs.readFile(path.join(state.sealedDir, `${rawSha}.json`))).toEqual(raw);

    await unsealBlock(state, SHA);
    expect(await fs.readFile(path.join(state.elidedDir, `${rawSha}.json`))).toEqual(raw);
  });

  it('should finish a seal a crash cut after its record: the text moves on the second run', async () => {
    await sealBlock(state, SHA, { reason: 'r', now: NOW });
    await fs.rename(path.join(state.sealedDir, `${SHA}.txt`), path.join(state.elidedDir, `${SHA}.txt`));

    expect(await sealBlock(state, SHA, { reason: 'later', now: '2027-01-01T00:00:00.000Z' })).toMatchObject({
      kind: 'sealed',
      record: { reason: 'r', sealedAt: NOW },
    });
    expect(await exists(path.join(state.sealedDir, `${SHA}.txt`))).toBe(true);
    expect(await exists(path.join(state.elidedDir, `${SHA}.txt`))).toBe(false);
  });
});

describe('unsealBlock', () => {
  it('should move the text back to elided/ byte for byte and remove the record', async () => {
    await sealBlock(state, SHA, { reason: null, now: NOW });
    const outcome = await unsealBlock(state, SHA);

    expect(outcome.kind).toBe('unsealed');
    expect(await fs.readFile(path.join(state.elidedDir, `${SHA}.txt`), 'utf8')).toBe(TEXT);
    expect(await readSeal(state, SHA)).toBeUndefined();
    expect(await listSealedShas(state)).toEqual(new Set());
  });

  it('should say not_sealed for a block that is not sealed, and whether its text is in elided/', async () => {
    expect(await unsealBlock(state, SHA)).toEqual({ kind: 'not_sealed', elided: true });
    expect(await unsealBlock(state, 'e'.repeat(64))).toEqual({ kind: 'not_sealed', elided: false });
  });

  it('should keep the record when the sealed text is gone from both folders', async () => {
    await sealBlock(state, SHA, { reason: null, now: NOW });
    await fs.rm(path.join(state.sealedDir, `${SHA}.txt`));

    expect((await unsealBlock(state, SHA)).kind).toBe('missing');
    expect(await readSeal(state, SHA)).toBeDefined();
  });
});

describe('writeElidedFile after a seal', () => {
  it('should leave the text in sealed/ when a latch elides the same text again', async () => {
    await sealBlock(state, SHA, { reason: null, now: NOW });
    await writeElidedFile(state, SHA, Buffer.from(TEXT));

    expect(await exists(path.join(state.elidedDir, `${SHA}.txt`))).toBe(false);
    expect(await fs.readFile(path.join(state.sealedDir, `${SHA}.txt`), 'utf8')).toBe(TEXT);
  });

  it('should let a second conversation latch a sealed text: its record is written, the text stays sealed', async () => {
    await sealBlock(state, SHA, { reason: null, now: NOW });
    const key2 = keyOf('again');
    const record = await latchEpoch(state, key2, () => {
      const { block, file } = blockFor(TEXT, 3);
      return { record: recordOf(key2, [epochOf(1, [block])]), originals: [file] };
    });

    expect(record?.epochs).toHaveLength(1);
    expect(await exists(path.join(state.elidedDir, `${SHA}.txt`))).toBe(false);
  });
});
