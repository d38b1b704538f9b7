import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeElidedFile } from '../../src/state/elided-file.js';
import { openStateDir, type StateDir } from '../../src/state/open-state-dir.js';
import { sha256Hex } from '../../src/state/sha256-hex.js';
import { writeSpanFiles } from '../support/span-files.js';
import type { Findings } from '../../src/state/verify-findings.js';
import { checkRecordedOriginals, walkOriginals, type FolderFiles } from '../../src/state/verify-originals.js';
import { blockFor, epochOf, keyOf, makeTempDir, recordOf, removeTempDir, shedEpochOf, spanFor } from './fixtures/state-fixtures.js';

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

// Walks every kind's folder, as verify does, and gives back the one findings name `label`.
async function walk(label: string): Promise<FolderFiles> {
  const folders = await walkOriginals(state, new Set(await fs.readdir(state.root)), findings);
  const folder = folders.find((f) => f.label === label);
  if (folder === undefined) throw new Error(`no folder ${label}`);
  return folder;
}

describe('walkOriginals, elided/', () => {
  it('should accept files named by their sha256 and return their sizes', async () => {
    await writeElidedFile(state, SHA, TEXT);
    expect((await walk('elided')).sizes).toEqual(new Map([[`${SHA}.txt`, TEXT.length]]));
    expect(findings).toEqual({ problems: [], notes: [] });
  });

  it('should report a file whose content does not hash to its name', async () => {
    await fs.writeFile(path.join(state.elidedDir, `${SHA}.txt`), 'hellO\n', { mode: 0o600 });
    await walk('elided');
    expect(findings.problems).toEqual([`elided/${SHA}.txt: content hashes to ${sha256Hex(Buffer.from('hellO\n'))}, not to its name`]);
  });

  it('should ignore write-file-atomic leftovers, with a note', async () => {
    await fs.writeFile(path.join(state.elidedDir, `${SHA}.txt.1234567`), 'hel', { mode: 0o600 });
    await walk('elided');
    expect(findings.problems).toEqual([]);
    expect(findings.notes).toEqual(['elided/: ignored 1 temp file(s) left by an interrupted atomic write']);
  });

  it('should report stray files and symlinks, and warn of wide modes', async () => {
    await fs.writeFile(path.join(state.elidedDir, 'notes.md'), 'x');
    await fs.symlink('/etc/hostname', path.join(state.elidedDir, `${'b'.repeat(64)}.txt`));
    await writeElidedFile(state, SHA, TEXT);
    await fs.chmod(path.join(state.elidedDir, `${SHA}.txt`), 0o644);
    await walk('elided');
    expect([...findings.problems].sort()).toEqual(
      [
        `elided/${'b'.repeat(64)}.txt: is a symbolic link, not a regular file (ctxshed never makes one, and never follows one)`,
        'elided/notes.md: stray file (not <sha256>.txt or <sha256>.json)',
      ].sort(),
    );
    expect(findings.notes).toContain(`warning: elided/${SHA}.txt: mode 0644 is wider than 0600 (chmod 600 it)`);
  });
});

describe('walkOriginals, spans/', () => {
  it('should list each good .json by size and each .md, with nothing to report', async () => {
    const { file } = spanFor('a', 1, 3);
    await writeSpanFiles(state, file.sha256, file.bytes);

    const files = await walk('spans');

    expect([...files.sizes.keys()].sort()).toEqual([`${file.sha256}.json`, `${file.sha256}.md`]);
    expect(files.sizes.get(`${file.sha256}.json`)).toBe(file.bytes.length);
    expect(findings).toEqual({ problems: [], notes: [] });
  });

  it('should report a .json whose bytes do not hash to its name, and stray names', async () => {
    const { file } = spanFor('a', 1, 3);
    await writeSpanFiles(state, file.sha256, file.bytes);
    await fs.writeFile(path.join(state.spansDir, `${file.sha256}.json`), 'changed');
    await fs.writeFile(path.join(state.spansDir, 'notes.txt'), 'x', { mode: 0o600 });

    const files = await walk('spans');

    // Kept with its size, as elided/ keeps a changed file: the record check then reports no "missing".
    expect(files.sizes.get(`${file.sha256}.json`)).toBe('changed'.length);
    expect(findings.problems).toEqual([
      `spans/${file.sha256}.json: content hashes to ${sha256Hex(Buffer.from('changed'))}, not to its name`,
      'spans/notes.txt: stray file (not <sha256>.json or <sha256>.md)',
    ]);
  });

  it('should note temp leftovers and wide modes, and refuse a symlink', async () => {
    const { file } = spanFor('a', 1, 3);
    await writeSpanFiles(state, file.sha256, file.bytes);
    await fs.writeFile(path.join(state.spansDir, `${file.sha256}.md.0123400001`), 'part', { mode: 0o600 });
    await fs.chmod(path.join(state.spansDir, `${file.sha256}.md`), 0o644);
    await fs.symlink('/etc/hostname', path.join(state.spansDir, `${'e'.repeat(64)}.json`));

    await walk('spans');

    expect(findings.problems).toEqual([
      `spans/${'e'.repeat(64)}.json: is a symbolic link, not a regular file (ctxshed never makes one, and never follows one)`,
    ]);
    expect(findings.notes).toEqual([
      `warning: spans/${file.sha256}.md: mode 0644 is wider than 0600 (chmod 600 it)`,
      'spans/: ignored 1 temp file(s) left by an interrupted atomic write',
    ]);
  });
});

describe('checkRecordedOriginals', () => {
  const one = blockFor('first', 0).block;
  const two = { ...blockFor('second', 1).block, rawSha256: 'c'.repeat(64) };
  const KEY = keyOf('a');
  const where = `conversations/${KEY}.json`;
  const record = recordOf(KEY, [epochOf(1, [one]), epochOf(2, [two])]);

  it('should report a missing .txt, a missing .json and a .txt of the wrong size, each named by its epoch and ordinal', async () => {
    const elided = await walk('elided');
    elided.sizes.set(`${one.sha256}.txt`, one.bytes + 1);
    checkRecordedOriginals([{ record, where }], [elided], findings);
    expect(findings.problems).toEqual([
      `${where}: epoch #1 ordinal 0: elided/${one.sha256}.txt has ${one.bytes + 1} bytes, the block says ${one.bytes}`,
      `${where}: epoch #2 ordinal 1: elided/${two.sha256}.txt is missing`,
      `${where}: epoch #2 ordinal 1: elided/${'c'.repeat(64)}.json is missing`,
    ]);
  });

  it('should take a file kept elsewhere (a sealed block) as there, and note a file no record names', async () => {
    const elided = await walk('elided');
    elided.also.set(`${one.sha256}.txt`, one.bytes);
    elided.sizes.set(`${two.sha256}.txt`, two.bytes);
    elided.sizes.set(`${'c'.repeat(64)}.json`, 9);
    elided.sizes.set(`${'d'.repeat(64)}.txt`, 3);
    checkRecordedOriginals([{ record, where }], [elided], findings);
    expect(findings).toEqual({ problems: [], notes: ['elided/: 1 file(s) named by no record (harmless)'] });
  });

  it('should report a span whose .md is missing, and note a rendering without its exact file', async () => {
    const { file, span } = spanFor('a', 1, 3);
    await writeSpanFiles(state, file.sha256, file.bytes);
    await fs.rm(path.join(state.spansDir, `${file.sha256}.md`));
    await fs.writeFile(path.join(state.spansDir, `${'f'.repeat(64)}.md`), '# lonely', { mode: 0o600 });
    const spans = await walk('spans');
    const shed = shedEpochOf(1, span);
    checkRecordedOriginals([{ record: recordOf(KEY, [shed]), where }], [spans], findings);
    expect(findings.problems).toEqual([`${where}: epoch #1 span 1..3: spans/${file.sha256}.md is missing`]);
    expect(findings.notes).toEqual(['spans/: 1 rendering(s) without their exact file beside them']);
  });
});
