import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStateDir, type StateDir } from '../../src/state/open-state-dir.js';
import { locateStoredFile } from '../../src/state/stored-file.js';
import { makeTempDir, removeTempDir } from './fixtures/state-fixtures.js';

const SHA = 'a'.repeat(64);
let tmp: string;
let state: StateDir;
beforeEach(async () => {
  tmp = await makeTempDir();
  state = await openStateDir(tmp);
});
afterEach(async () => {
  await removeTempDir(tmp);
});

describe('locateStoredFile', () => {
  it('should find a file in elided/ first', async () => {
    await fs.writeFile(path.join(state.elidedDir, `${SHA}.txt`), 'abc');
    expect(await locateStoredFile(state, SHA, 'txt')).toEqual({ path: path.join(state.elidedDir, `${SHA}.txt`), where: 'elided', size: 3 });
  });

  it('should find a sealed file in sealed/', async () => {
    await fs.mkdir(state.sealedDir);
    await fs.writeFile(path.join(state.sealedDir, `${SHA}.json`), 'abcd');
    expect(await locateStoredFile(state, SHA, 'json')).toMatchObject({ where: 'sealed', size: 4 });
  });

  it('should answer undefined for a missing file, a missing sealed/ and a symlink', async () => {
    expect(await locateStoredFile(state, SHA, 'txt')).toBeUndefined();
    await fs.symlink('/etc/hostname', path.join(state.elidedDir, `${SHA}.txt`));
    expect(await locateStoredFile(state, SHA, 'txt')).toBeUndefined();
  });
});
