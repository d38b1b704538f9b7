import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { locateStoredFile } from '../../src/state/stored-file.js';
import { useStateDir } from './fixtures/state-fixtures.js';

const SHA = 'a'.repeat(64);
const dirs = useStateDir();

describe('locateStoredFile', () => {
  it('should find a file in elided/ first', async () => {
    await fs.writeFile(path.join(dirs.state.elidedDir, `${SHA}.txt`), 'abc');
    expect(await locateStoredFile(dirs.state, SHA, 'txt')).toEqual({ path: path.join(dirs.state.elidedDir, `${SHA}.txt`), where: 'elided', size: 3 });
  });

  it('should find a sealed file in sealed/', async () => {
    await fs.mkdir(dirs.state.sealedDir);
    await fs.writeFile(path.join(dirs.state.sealedDir, `${SHA}.json`), 'abcd');
    expect(await locateStoredFile(dirs.state, SHA, 'json')).toMatchObject({ where: 'sealed', size: 4 });
  });

  it('should answer undefined for a missing file, a missing sealed/ and a symlink', async () => {
    expect(await locateStoredFile(dirs.state, SHA, 'txt')).toBeUndefined();
    await fs.symlink('/etc/hostname', path.join(dirs.state.elidedDir, `${SHA}.txt`));
    expect(await locateStoredFile(dirs.state, SHA, 'txt')).toBeUndefined();
  });
});
