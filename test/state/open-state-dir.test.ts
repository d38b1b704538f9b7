import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStateDir } from '../../src/state/open-state-dir.js';
import { makeTempDir, modeOf, removeTempDir, withUmask } from './fixtures/state-fixtures.js';

let tmp: string;
beforeEach(async () => {
  tmp = await makeTempDir();
});
afterEach(async () => {
  await removeTempDir(tmp);
});

describe('openStateDir', () => {
  it('should create the root, elided/ and conversations/ with mode 0700 even under umask 000', async () => {
    const dir = path.join(tmp, 'deep', 'state');
    const state = await withUmask(0o000, () => openStateDir(dir));
    expect(state.root).toBe(dir);
    expect(state.elidedDir).toBe(path.join(dir, 'elided'));
    expect(state.conversationsDir).toBe(path.join(dir, 'conversations'));
    expect(state.wirePath).toBe(path.join(dir, 'wire.jsonl'));
    for (const made of [state.root, state.elidedDir, state.conversationsDir]) expect(await modeOf(made)).toBe(0o700);
  });

  it('should return an absolute root for a relative path', async () => {
    const relative = path.relative(process.cwd(), path.join(tmp, 'rel'));
    const state = await openStateDir(relative);
    expect(state.root).toBe(path.join(tmp, 'rel'));
  });

  it('should open an existing state directory again and tighten its folders', async () => {
    const state = await openStateDir(tmp);
    await fs.chmod(state.elidedDir, 0o755);
    await fs.chmod(state.root, 0o755);
    await openStateDir(tmp);
    expect(await modeOf(state.elidedDir)).toBe(0o700);
    expect(await modeOf(state.root)).toBe(0o700);
  });

  it('should tighten an existing empty directory', async () => {
    await fs.chmod(tmp, 0o755);
    await openStateDir(tmp);
    expect(await modeOf(tmp)).toBe(0o700);
  });

  it('should refuse a wide, non-empty directory that is not a state directory (like /tmp)', async () => {
    await fs.writeFile(path.join(tmp, 'someone-elses.txt'), 'x');
    await fs.chmod(tmp, 0o1777);
    await expect(openStateDir(tmp)).rejects.toMatchObject({ code: 'STATE_NOT_PRIVATE' });
    expect(await modeOf(tmp)).toBe(0o777);
  });

  it('should fail with STATE_NOT_DIR when the path is a file', async () => {
    const file = path.join(tmp, 'file');
    await fs.writeFile(file, 'x');
    await expect(openStateDir(file)).rejects.toMatchObject({ code: 'STATE_NOT_DIR' });
    await expect(openStateDir(path.join(file, 'below'))).rejects.toMatchObject({ code: 'STATE_NOT_DIR' });
  });

  it('should fail with STATE_NOT_DIR when elided is a file', async () => {
    await fs.writeFile(path.join(tmp, 'elided'), 'x');
    await expect(openStateDir(tmp)).rejects.toMatchObject({ code: 'STATE_NOT_DIR' });
  });

  it('should refuse a symlinked elided/ with STATE_SYMLINK', async () => {
    const elsewhere = path.join(tmp, 'elsewhere');
    await fs.mkdir(elsewhere);
    const root = path.join(tmp, 'state');
    await fs.mkdir(root);
    await fs.symlink(elsewhere, path.join(root, 'elided'));
    await expect(openStateDir(root)).rejects.toMatchObject({ code: 'STATE_SYMLINK' });
  });

  it('should accept a root that is itself a symlink the user chose, and name it by its real path', async () => {
    const real = path.join(tmp, 'real');
    await fs.mkdir(real, { mode: 0o700 });
    await fs.symlink(real, path.join(tmp, 'link'));
    const state = await openStateDir(path.join(tmp, 'link'));
    expect((await fs.stat(path.join(real, 'elided'))).isDirectory()).toBe(true);
    // Stubs carry this path: both spellings must give the same stub bytes.
    expect(state.root).toBe(await fs.realpath(real));
    expect((await openStateDir(real)).elidedDir).toBe(state.elidedDir);
  });

  // root passes every permission check, so this case only shows for an ordinary user.
  it.skipIf(process.getuid?.() === 0)('should fail with STATE_UNWRITABLE when it cannot write', async () => {
    const locked = path.join(tmp, 'locked');
    await fs.mkdir(locked, { mode: 0o500 });
    await expect(openStateDir(path.join(locked, 'state'))).rejects.toMatchObject({ code: 'STATE_UNWRITABLE' });
  });
});
