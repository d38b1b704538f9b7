import { spawnSync } from 'node:child_process';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readContainedFile } from '../../src/state/read-contained.js';

let tmp: string;
let root: string;
let outside: string;
beforeEach(async () => {
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'ctxshed-contained-'));
  root = path.join(tmp, 'state');
  outside = path.join(tmp, 'outside');
  await fs.mkdir(path.join(root, 'elided'), { recursive: true });
  await fs.mkdir(outside);
  await fs.writeFile(path.join(outside, 'x.txt'), 'outside');
});
afterEach(async () => {
  await fs.rm(tmp, { recursive: true, force: true });
});

describe('readContainedFile', () => {
  it('should read a regular file inside the state directory, also when the root is a link the user chose', async () => {
    await fs.writeFile(path.join(root, 'elided', 'x.txt'), 'inside');
    const link = path.join(tmp, 'link');
    await fs.symlink(root, link);

    expect(await readContainedFile(root, path.join(root, 'elided', 'x.txt'))).toEqual({ kind: 'ok', bytes: Buffer.from('inside') });
    expect(await readContainedFile(link, path.join(link, 'elided', 'x.txt'))).toEqual({ kind: 'ok', bytes: Buffer.from('inside') });
  });

  it('should say missing for no file, and for a file under a missing folder', async () => {
    expect(await readContainedFile(root, path.join(root, 'elided', 'none.txt'))).toEqual({ kind: 'missing' });
    expect(await readContainedFile(root, path.join(root, 'spans', 'none.json'))).toEqual({ kind: 'missing' });
  });

  it('should refuse a file reached through a symlinked folder', async () => {
    await fs.rm(path.join(root, 'elided'), { recursive: true });
    await fs.symlink(outside, path.join(root, 'elided'));

    const read = await readContainedFile(root, path.join(root, 'elided', 'x.txt'));

    expect(read).toMatchObject({ kind: 'refused', why: expect.stringContaining('lies outside the state directory') });
  });

  it('should refuse a symlink, a FIFO, a socket and a directory where the file belongs', async () => {
    const dir = path.join(root, 'elided');
    await fs.symlink(path.join(outside, 'x.txt'), path.join(dir, 'link.txt'));
    expect(spawnSync('mkfifo', [path.join(dir, 'fifo.txt')]).status).toBe(0);
    await fs.mkdir(path.join(dir, 'dir.txt'));
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(path.join(dir, 'sock.txt'), resolve));
    try {
      const whys = [];
      for (const name of ['link.txt', 'fifo.txt', 'sock.txt', 'dir.txt']) {
        const read = await readContainedFile(root, path.join(dir, name));
        whys.push(read.kind === 'refused' ? read.why.slice(dir.length + 1) : read.kind);
      }

      expect(whys).toEqual([
        'link.txt is a symbolic link, not a regular file',
        'fifo.txt is a FIFO (named pipe), not a regular file',
        'sock.txt is a socket, not a regular file',
        'dir.txt is a directory, not a regular file',
      ]);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
