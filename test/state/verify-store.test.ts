import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/state/sha256-hex.js';
import type { Findings } from '../../src/state/verify-findings.js';
import { checkFileHash, walkStore, type StoreEntry } from '../../src/state/verify-store.js';
import { makeTempDir, removeTempDir } from './fixtures/state-fixtures.js';

const TEXT = Buffer.from('hello\n');
const SHA = sha256Hex(TEXT);
const parse = (name: string): string | undefined => /^([0-9a-f]{64})\.bin$/.exec(name)?.[1];

let dir: string;
let findings: Findings;
beforeEach(async () => {
  dir = await makeTempDir();
  findings = { problems: [], notes: [] };
});
afterEach(async () => {
  await removeTempDir(dir);
});

describe('walkStore', () => {
  it('should visit each well-named private file in name order, note temp leftovers and report strays, links and wide modes', async () => {
    // Arrange
    const other = Buffer.from('other\n');
    await fs.writeFile(path.join(dir, `${SHA}.bin`), TEXT, { mode: 0o600 });
    await fs.writeFile(path.join(dir, `${sha256Hex(other)}.bin`), other, { mode: 0o644 });
    await fs.writeFile(path.join(dir, 'notes.txt'), 'x', { mode: 0o600 });
    await fs.writeFile(path.join(dir, `${SHA}.json.12.3`), 'x', { mode: 0o600 });
    await fs.symlink(path.join(dir, `${SHA}.bin`), path.join(dir, `${'0'.repeat(64)}.bin`));
    const visited: StoreEntry<string>[] = [];

    // Act
    await walkStore({ dir, label: 'things', parse, names: '<sha256>.bin' }, findings, async (entry) => {
      visited.push(entry);
    });

    // Assert
    expect(visited.map((e) => [e.parsed, e.where, e.size])).toEqual(
      [
        [SHA, `things/${SHA}.bin`, TEXT.length],
        [sha256Hex(other), `things/${sha256Hex(other)}.bin`, other.length],
      ].sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
    );
    expect(findings.problems).toEqual([
      `things/${'0'.repeat(64)}.bin: is a symbolic link, not a regular file (ctxshed never makes one, and never follows one)`,
      'things/notes.txt: stray file (not <sha256>.bin)',
    ]);
    expect(findings.notes).toEqual([
      `warning: things/${sha256Hex(other)}.bin: mode 0644 is wider than 0600 (chmod 600 it)`,
      'things/: ignored 1 temp file(s) left by an interrupted atomic write',
    ]);
  });
});

describe('checkFileHash', () => {
  it('should report a file whose bytes do not hash to its name', async () => {
    // Arrange
    const file = path.join(dir, `${SHA}.bin`);
    await fs.writeFile(file, 'hellO\n', { mode: 0o600 });

    // Act
    await checkFileHash({ name: `${SHA}.bin`, parsed: SHA, file, where: `things/${SHA}.bin`, size: 6 }, SHA, findings);

    // Assert
    expect(findings.problems).toEqual([`things/${SHA}.bin: content hashes to ${sha256Hex(Buffer.from('hellO\n'))}, not to its name`]);
  });
});
