import fs from 'node:fs/promises';
import path from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fsyncDir, refuseSymlink, writeFileDurable } from '../../src/state/atomic-write.js';
import { makeTempDir, modeOf, removeTempDir, withUmask } from './fixtures/state-fixtures.js';

let tmp: string;
beforeEach(async () => {
  tmp = await makeTempDir();
});
afterEach(async () => {
  await removeTempDir(tmp);
});

describe('writeFileDurable', () => {
  it('should write the bytes with mode 0600 even under umask 000', async () => {
    const file = path.join(tmp, 'a.json');
    await withUmask(0o000, () => writeFileDurable(file, Buffer.from('{"a":1}\n')));
    expect(await fs.readFile(file, 'utf8')).toBe('{"a":1}\n');
    expect(await modeOf(file)).toBe(0o600);
  });

  it('should replace an existing file and leave no temp file behind', async () => {
    const file = path.join(tmp, 'a.json');
    await fs.writeFile(file, 'old', { mode: 0o644 });
    await writeFileDurable(file, Buffer.from('new'));
    expect(await fs.readFile(file, 'utf8')).toBe('new');
    expect(await modeOf(file)).toBe(0o600);
    expect(await fs.readdir(tmp)).toEqual(['a.json']);
  });

  it('should write a view of a larger buffer exactly', async () => {
    const file = path.join(tmp, 'v.txt');
    await writeFileDurable(file, Buffer.from('--payload--').subarray(2, 9));
    expect(await fs.readFile(file, 'utf8')).toBe('payload');
  });

  it('should refuse to write through a symlink, leaving its target alone', async () => {
    const outside = path.join(tmp, 'outside.txt');
    await fs.writeFile(outside, 'precious');
    const link = path.join(tmp, 'link.txt');
    await fs.symlink(outside, link);
    await expect(writeFileDurable(link, Buffer.from('overwritten'))).rejects.toMatchObject({ code: 'STATE_SYMLINK' });
    expect(await fs.readFile(outside, 'utf8')).toBe('precious');
  });
});

// Why writeFileDurable checks with lstat first: these two facts pull in opposite directions.
describe('write-file-atomic (the trap refuseSymlink guards)', () => {
  it('should show that write-file-atomic alone writes through a symlink, because it realpath()s the target', async () => {
    const outside = path.join(tmp, 'outside.txt');
    await fs.writeFile(outside, 'precious');
    const link = path.join(tmp, 'link.txt');
    await fs.symlink(outside, link);
    await writeFileAtomic(link, Buffer.from('overwritten'), { mode: 0o600 });
    expect(await fs.readFile(outside, 'utf8')).toBe('overwritten');
    expect((await fs.lstat(link)).isSymbolicLink()).toBe(true);
  });

  it('should show that a plain rename() replaces a symlink instead of following it', async () => {
    const outside = path.join(tmp, 'outside.txt');
    await fs.writeFile(outside, 'precious');
    const link = path.join(tmp, 'link.txt');
    await fs.symlink(outside, link);
    await fs.writeFile(path.join(tmp, 'tmp'), 'new');
    await fs.rename(path.join(tmp, 'tmp'), link);
    expect(await fs.readFile(outside, 'utf8')).toBe('precious');
    expect((await fs.lstat(link)).isSymbolicLink()).toBe(false);
  });
});

describe('refuseSymlink', () => {
  it('should accept a missing path and a regular file', async () => {
    await expect(refuseSymlink(path.join(tmp, 'missing'))).resolves.toBeUndefined();
    await fs.writeFile(path.join(tmp, 'f'), 'x');
    await expect(refuseSymlink(path.join(tmp, 'f'))).resolves.toBeUndefined();
  });

  it('should refuse a dangling symlink too', async () => {
    await fs.symlink(path.join(tmp, 'nowhere'), path.join(tmp, 'dangling'));
    await expect(refuseSymlink(path.join(tmp, 'dangling'))).rejects.toMatchObject({ code: 'STATE_SYMLINK' });
  });
});

describe('fsyncDir', () => {
  it('should flush a directory without error', async () => {
    await expect(fsyncDir(tmp)).resolves.toBeUndefined();
  });
});
