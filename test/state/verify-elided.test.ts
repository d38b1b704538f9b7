import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeElidedFile } from '../../src/state/elided-file.js';
import { openStateDir, type StateDir } from '../../src/state/open-state-dir.js';
import { sha256Hex } from '../../src/state/sha256-hex.js';
import { verifyElided } from '../../src/state/verify-elided.js';
import type { Findings } from '../../src/state/verify-findings.js';
import { makeTempDir, removeTempDir } from './fixtures/state-fixtures.js';

const TEXT = Buffer.from('hello\n');
const SHA = sha256Hex(TEXT);

let tmp: string;
let state: StateDir;
let findings: Findings;
beforeEach(async () => {
  tmp = await makeTempDir();
  state = await openStateDir(tmp);
  findings = { problems: [], notes: [] };
});
afterEach(async () => {
  await removeTempDir(tmp);
});

describe('verifyElided', () => {
  it('should accept files named by their sha256 and return their sizes', async () => {
    await writeElidedFile(state, SHA, TEXT);
    expect(await verifyElided(state, findings)).toEqual(new Map([[`${SHA}.txt`, TEXT.length]]));
    expect(findings).toEqual({ problems: [], notes: [] });
  });

  it('should report a file whose content does not hash to its name', async () => {
    await fs.writeFile(path.join(state.elidedDir, `${SHA}.txt`), 'hellO\n', { mode: 0o600 });
    await verifyElided(state, findings);
    expect(findings.problems).toEqual([`elided/${SHA}.txt: content hashes to ${sha256Hex(Buffer.from('hellO\n'))}, not to its name`]);
  });

  it('should ignore write-file-atomic leftovers, with a note', async () => {
    await fs.writeFile(path.join(state.elidedDir, `${SHA}.txt.1234567`), 'hel', { mode: 0o600 });
    await verifyElided(state, findings);
    expect(findings.problems).toEqual([]);
    expect(findings.notes).toEqual(['elided/: ignored 1 temp file(s) left by an interrupted atomic write']);
  });

  it('should report stray files and symlinks, and warn of wide modes', async () => {
    await fs.writeFile(path.join(state.elidedDir, 'notes.md'), 'x');
    await fs.symlink('/etc/hostname', path.join(state.elidedDir, `${'b'.repeat(64)}.txt`));
    await writeElidedFile(state, SHA, TEXT);
    await fs.chmod(path.join(state.elidedDir, `${SHA}.txt`), 0o644);
    await verifyElided(state, findings);
    expect([...findings.problems].sort()).toEqual(
      [
        `elided/${'b'.repeat(64)}.txt: is a symbolic link, not a regular file (ctxshed never makes one, and never follows one)`,
        'elided/notes.md: stray file (not <sha256>.txt or <sha256>.json)',
      ].sort(),
    );
    expect(findings.notes).toContain(`warning: elided/${SHA}.txt: mode 0644 is wider than 0600 (chmod 600 it)`);
  });
});
