import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeElidedFile } from '../../src/state/elided-file.js';
import { openStateDir, type StateDir } from '../../src/state/open-state-dir.js';
import { sha256Hex } from '../../src/state/sha256-hex.js';
import { makeTempDir, modeOf, removeTempDir, withUmask } from './fixtures/state-fixtures.js';

const TEXT = Buffer.from('line 1\nline 2\n'.repeat(100), 'utf8');
const SHA = sha256Hex(TEXT);

let tmp: string;
let state: StateDir;
beforeEach(async () => {
  tmp = await makeTempDir();
  state = await openStateDir(path.join(tmp, 'state'));
});
afterEach(async () => {
  await removeTempDir(tmp);
});

describe('writeElidedFile', () => {
  it('should write elided/<sha256>.txt holding exactly the bytes, mode 0600 under umask 000', async () => {
    await withUmask(0o000, () => writeElidedFile(state, SHA, TEXT));
    const file = path.join(state.elidedDir, `${SHA}.txt`);
    expect(await fs.readFile(file)).toEqual(TEXT);
    expect(await modeOf(file)).toBe(0o600);
    expect(sha256Hex(await fs.readFile(file))).toBe(SHA);
  });

  it('should write the .json variant when asked', async () => {
    const raw = Buffer.from('"caf\\u00e9"');
    await writeElidedFile(state, sha256Hex(raw), raw, 'json');
    expect(await fs.readFile(path.join(state.elidedDir, `${sha256Hex(raw)}.json`))).toEqual(raw);
  });

  it('should refuse bytes that do not hash to the name, and write nothing', async () => {
    await expect(writeElidedFile(state, SHA, Buffer.from('something else'))).rejects.toMatchObject({
      code: 'STATE_HASH_MISMATCH',
    });
    expect(await fs.readdir(state.elidedDir)).toEqual([]);
  });

  it('should refuse a name that is not a sha256', async () => {
    await expect(writeElidedFile(state, '../x', TEXT)).rejects.toMatchObject({ code: 'STATE_BAD_NAME' });
  });

  it('should leave an identical existing file as it is', async () => {
    await writeElidedFile(state, SHA, TEXT);
    const file = path.join(state.elidedDir, `${SHA}.txt`);
    const before = await fs.stat(file);
    await writeElidedFile(state, SHA, TEXT);
    const after = await fs.stat(file);
    expect(after.ino).toBe(before.ino);
    expect(after.mtimeMs).toBe(before.mtimeMs);
  });

  it('should replace an existing file of the right size whose content does not match its name', async () => {
    const file = path.join(state.elidedDir, `${SHA}.txt`);
    await fs.writeFile(file, Buffer.alloc(TEXT.length, 0x78), { mode: 0o600 });
    await writeElidedFile(state, SHA, TEXT);
    expect(await fs.readFile(file)).toEqual(TEXT);
  });

  it('should replace an existing truncated file', async () => {
    const file = path.join(state.elidedDir, `${SHA}.txt`);
    await fs.writeFile(file, TEXT.subarray(0, 10), { mode: 0o600 });
    await writeElidedFile(state, SHA, TEXT);
    expect(await fs.readFile(file)).toEqual(TEXT);
  });

  it('should not write through a symlink planted at elided/<sha>.txt pointing outside', async () => {
    const outside = path.join(tmp, 'outside.txt');
    await fs.writeFile(outside, 'precious');
    const planted = path.join(state.elidedDir, `${SHA}.txt`);
    await fs.symlink(outside, planted);
    await expect(writeElidedFile(state, SHA, TEXT)).rejects.toMatchObject({ code: 'STATE_SYMLINK' });
    expect(await fs.readFile(outside, 'utf8')).toBe('precious');
    expect((await fs.lstat(planted)).isSymbolicLink()).toBe(true);
  });

  it('should not trust a symlink to a file that happens to hold the right bytes', async () => {
    const outside = path.join(tmp, 'copy.txt');
    await fs.writeFile(outside, TEXT);
    await fs.symlink(outside, path.join(state.elidedDir, `${SHA}.txt`));
    await expect(writeElidedFile(state, SHA, TEXT)).rejects.toMatchObject({ code: 'STATE_SYMLINK' });
  });
});
