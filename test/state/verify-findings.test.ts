import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkKind, checkPrivate, type Findings } from '../../src/state/verify-findings.js';
import { makeTempDir, removeTempDir } from './fixtures/state-fixtures.js';

let tmp: string;
let findings: Findings;
beforeEach(async () => {
  tmp = await makeTempDir();
  findings = { problems: [], notes: [] };
});
afterEach(async () => {
  await removeTempDir(tmp);
});

describe('checkPrivate', () => {
  it.each([
    ['file', 0o600, 0],
    ['file', 0o400, 0],
    ['file', 0o644, 1],
    ['file', 0o700, 1],
    ['dir', 0o700, 0],
    ['dir', 0o755, 1],
  ] as const)('should judge a %s with mode %o (%i warnings, no problem)', async (kind, mode, count) => {
    const where = path.join(tmp, 'entry');
    if (kind === 'dir') await fs.mkdir(where);
    else await fs.writeFile(where, '');
    await fs.chmod(where, mode);
    checkPrivate(await fs.lstat(where), 'entry', findings);
    expect(findings.problems).toHaveLength(0);
    expect(findings.notes).toHaveLength(count);
  });
});

describe('checkKind', () => {
  it('should report a symlink where a file belongs', async () => {
    await fs.writeFile(path.join(tmp, 'target'), '');
    await fs.symlink(path.join(tmp, 'target'), path.join(tmp, 'link'));
    expect(checkKind(await fs.lstat(path.join(tmp, 'link')), 'file', 'link', findings)).toBe(false);
    expect(findings.problems).toEqual(['link: is a symbolic link, not a regular file (ctxshed never makes one, and never follows one)']);
  });

  it('should report a directory where a file belongs', async () => {
    expect(checkKind(await fs.lstat(tmp), 'file', 'x', findings)).toBe(false);
    expect(findings.problems).toEqual(['x: is a directory, not a regular file']);
  });
});
