import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStateDir, type StateDir } from '../../src/state/open-state-dir.js';
import { sha256Hex } from '../../src/state/sha256-hex.js';
import { writeSpanFiles } from '../../src/state/span-file.js';
import type { Findings } from '../../src/state/verify-findings.js';
import { verifySpans } from '../../src/state/verify-spans.js';
import { makeTempDir, removeTempDir, spanFor } from './fixtures/state-fixtures.js';

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

describe('verifySpans', () => {
  it('should list each good .json by size and each .md, with nothing to report', async () => {
    const { file } = spanFor('a', 1, 3);
    await writeSpanFiles(state, file.sha256, file.bytes);

    const files = await verifySpans(state, findings);

    expect(files.exact).toEqual(new Map([[file.sha256, file.bytes.length]]));
    expect(files.readable).toEqual(new Set([file.sha256]));
    expect(findings).toEqual({ problems: [], notes: [] });
  });

  it('should report a .json whose bytes do not hash to its name, and stray names', async () => {
    const { file } = spanFor('a', 1, 3);
    await writeSpanFiles(state, file.sha256, file.bytes);
    await fs.writeFile(path.join(state.spansDir, `${file.sha256}.json`), 'changed');
    await fs.writeFile(path.join(state.spansDir, 'notes.txt'), 'x', { mode: 0o600 });

    const files = await verifySpans(state, findings);

    // Kept with its size, as elided/ keeps a changed file: the record check then reports no "missing".
    expect([...files.exact]).toEqual([[file.sha256, 'changed'.length]]);
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

    await verifySpans(state, findings);

    expect(findings.problems).toEqual([
      `spans/${'e'.repeat(64)}.json: is a symbolic link, not a regular file (ctxshed never makes one, and never follows one)`,
    ]);
    expect(findings.notes).toEqual([
      `warning: spans/${file.sha256}.md: mode 0644 is wider than 0600 (chmod 600 it)`,
      'spans/: ignored 1 temp file(s) left by an interrupted atomic write',
    ]);
  });
});
