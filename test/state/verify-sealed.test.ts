import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeElidedFile } from '../../src/state/elided-file.js';
import { openStateDir, type StateDir } from '../../src/state/open-state-dir.js';
import { sealBlock } from '../../src/state/seal-block.js';
import { sha256Hex } from '../../src/state/sha256-hex.js';
import { verifySealed } from '../../src/state/verify-sealed.js';
import { makeTempDir, removeTempDir } from './fixtures/state-fixtures.js';

const TEXT = Buffer.from('sealed text\n'.repeat(50));
const SHA = sha256Hex(TEXT);
let tmp: string;
let state: StateDir;
beforeEach(async () => {
  tmp = await makeTempDir();
  state = await openStateDir(tmp);
  await writeElidedFile(state, SHA, TEXT);
  await sealBlock(state, SHA, { reason: null, now: '2026-01-01T00:00:00.000Z' });
});
afterEach(async () => {
  await removeTempDir(tmp);
});

describe('verifySealed', () => {
  it('should return the sealed files and records of a sealed block, with no finding', async () => {
    const findings = { problems: [], notes: [] };
    const sealed = await verifySealed(state, new Map(), findings);
    expect(sealed.files).toEqual(new Map([[`${SHA}.txt`, TEXT.length]]));
    expect(sealed.records.map((r) => r.sha256)).toEqual([SHA]);
    expect(findings).toEqual({ problems: [], notes: [] });
  });

  it('should report a stray name, a broken record, and note a text without a record', async () => {
    await fs.writeFile(path.join(state.sealedDir, 'notes.md'), 'x', { mode: 0o600 });
    const other = Buffer.from('other');
    await fs.writeFile(path.join(state.sealedDir, `${sha256Hex(other)}.txt`), other, { mode: 0o600 });
    await fs.writeFile(path.join(state.sealedDir, `${SHA}.seal.json`), '{"format":', { mode: 0o600 });
    const findings = { problems: [] as string[], notes: [] as string[] };
    await verifySealed(state, new Map(), findings);
    expect(findings.problems).toEqual([
      `sealed/${SHA}.seal.json: not valid JSON`,
      'sealed/notes.md: stray file (not <sha256>.txt, <sha256>.json or <sha256>.seal.json)',
    ]);
    expect(findings.notes.sort()).toEqual(
      [
        `sealed/${SHA}.txt: no seal record names it (ctxshed seal SHA records it again)`,
        `sealed/${sha256Hex(other)}.txt: no seal record names it (ctxshed seal SHA records it again)`,
      ].sort(),
    );
  });
});
