import { spawnSync } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { latchEpoch } from '../../src/state/latch-epoch.js';
import { openStateDir, type StateDir } from '../../src/state/open-state-dir.js';
import { writeSpanFiles } from '../support/span-files.js';
import { sealBlock } from '../../src/state/seal-block.js';
import { verifyState } from '../../src/state/verify-state.js';
import { appendWireRecord } from '../../src/state/wire-log.js';
import { appendEpochPlan, keyOf, makeTempDir, recordOf, removeTempDir, shedEpochOf, spanFor } from './fixtures/state-fixtures.js';
import { blocksOf } from '../../src/core/epoch-items.js';

const KEY = keyOf('conversation');

let tmp: string;
let state: StateDir;
let blockSha: string;
beforeEach(async () => {
  tmp = await makeTempDir();
  state = await openStateDir(tmp);
  await latchEpoch(state, KEY, (current) => appendEpochPlan(KEY, current, 'first result\n'.repeat(90), 0));
  const record = await latchEpoch(state, KEY, (current) => appendEpochPlan(KEY, current, 'second\n'.repeat(200), 1));
  blockSha = blocksOf(record!.epochs[1]!)[0]?.sha256 ?? '';
  await appendWireRecord(state, { path: '/v1/messages', status: 200, rescued: 2 });
});
afterEach(async () => {
  await removeTempDir(tmp);
});

describe('verifyState', () => {
  it('should pass a state directory written by this module, and count what it checked', async () => {
    expect(await verifyState(tmp)).toEqual({
      problems: [],
      notes: [],
      checked: { elided: 2, conversations: 1, epochs: 2, blocks: 2, spans: 0 },
    });
  });

  it('should pass after a crash: a temp leftover and a partial last wire line give notes only', async () => {
    await fs.writeFile(path.join(state.conversationsDir, 'x.json.123456'), '{"format":"ctxsh', { mode: 0o600 });
    await fs.writeFile(path.join(state.elidedDir, `${blockSha}.txt.987654`), 'sec', { mode: 0o600 });
    await fs.appendFile(state.wirePath, '{"path":"/v1/messages","sta');
    await fs.mkdir(state.lockPath); // a lock the killed process held
    const report = await verifyState(tmp);
    expect(report.problems).toEqual([]);
    expect(report.notes).toHaveLength(4);
    expect(report.notes.join('\n')).toMatch(/\.lock[\s\S]*elided\/: ignored 1[\s\S]*conversations\/: ignored 1[\s\S]*line 2, the last/);
  });

  it('should catch an elided file whose content does not match its name', async () => {
    await fs.writeFile(path.join(state.elidedDir, `${blockSha}.txt`), 'SECOND\n'.repeat(200), { mode: 0o600 });
    expect((await verifyState(tmp)).problems).toEqual([expect.stringContaining(`elided/${blockSha}.txt: content hashes to`)]);
  });

  it('should catch a missing block file', async () => {
    await fs.rm(path.join(state.elidedDir, `${blockSha}.txt`));
    expect((await verifyState(tmp)).problems).toEqual([`conversations/${KEY}.json: epoch #2 ordinal 1: elided/${blockSha}.txt is missing`]);
  });

  it('should catch a bad record', async () => {
    const file = path.join(state.conversationsDir, `${KEY}.json`);
    const record = JSON.parse(await fs.readFile(file, 'utf8')) as { epochs: unknown[] };
    await fs.writeFile(file, JSON.stringify({ ...record, epochs: [...record.epochs].reverse() }));
    const report = await verifyState(tmp);
    expect(report.problems.join('\n')).toContain('epochs must be numbered 1..n in order');
    // Files no longer named by a valid record are harmless leftovers, as after a killed latch.
    expect(report.notes).toEqual(['elided/: 2 file(s) named by no record (harmless)']);
  });

  it('should warn about files and folders readable by others, without failing', async () => {
    await fs.chmod(path.join(state.conversationsDir, `${KEY}.json`), 0o644);
    await fs.chmod(state.elidedDir, 0o755);
    await fs.chmod(tmp, 0o711);
    const report = await verifyState(tmp);
    expect(report.problems).toEqual([]);
    expect(report.notes.filter((n) => n.startsWith('warning:'))).toEqual([
      `warning: ${tmp}: mode 0711 is wider than 0700 (chmod 700 it)`,
      'warning: elided/: mode 0755 is wider than 0700 (chmod 700 it)',
      `warning: conversations/${KEY}.json: mode 0644 is wider than 0600 (chmod 600 it)`,
    ]);
  });

  it('should catch stray files in the state directory and missing folders', async () => {
    await fs.writeFile(path.join(tmp, 'notes.txt'), 'x', { mode: 0o600 });
    await fs.rm(state.conversationsDir, { recursive: true });
    const report = await verifyState(tmp);
    expect(report.problems).toEqual(['notes.txt: stray file in the state directory', 'conversations/: missing']);
  });

  it('should report a path that is not a directory, and change nothing', async () => {
    const missing = path.join(tmp, 'nope');
    expect((await verifyState(missing)).problems).toEqual([`${missing}: not a directory`]);
    await expect(fs.lstat(missing)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('should pass a sealed block: its record names files that moved to sealed/', async () => {
    await sealBlock(state, blockSha, { reason: 'private', now: '2026-01-01T00:00:00.000Z' });
    const report = await verifyState(tmp);
    expect(report.problems).toEqual([]);
    expect(report.notes).toEqual(['sealed/: 1 sealed block (kept, not restorable; ctxshed unseal SHA gives one back)']);
  });

  it('should note an interrupted seal (record written, text not moved yet), not fail', async () => {
    await sealBlock(state, blockSha, { reason: null, now: '2026-01-01T00:00:00.000Z' });
    await fs.rename(path.join(state.sealedDir, `${blockSha}.txt`), path.join(state.elidedDir, `${blockSha}.txt`));
    const report = await verifyState(tmp);
    expect(report.problems).toEqual([]);
    expect(report.notes.join('\n')).toContain(`elided/${blockSha}.txt is not moved yet`);
  });

  it('should catch a sealed text that is gone, or altered', async () => {
    await sealBlock(state, blockSha, { reason: null, now: '2026-01-01T00:00:00.000Z' });
    await fs.writeFile(path.join(state.sealedDir, `${blockSha}.txt`), 'SECOND\n'.repeat(200));
    expect((await verifyState(tmp)).problems).toEqual([expect.stringContaining(`sealed/${blockSha}.txt: content hashes to`)]);
    await fs.rm(path.join(state.sealedDir, `${blockSha}.txt`));
    expect((await verifyState(tmp)).problems).toEqual([
      `sealed/${blockSha}.seal.json: ${blockSha}.txt is in neither sealed/ nor elided/`,
      `conversations/${KEY}.json: epoch #2 ordinal 1: elided/${blockSha}.txt is missing`,
    ]);
  });
});

describe('verifyState, shed mode', () => {
  const SHED = keyOf('shed conversation');
  const one = spanFor('one', 1, 6);
  const two = spanFor('two', 7, 12);

  beforeEach(async () => {
    await latchEpoch(state, SHED, () => ({ record: recordOf(SHED, [shedEpochOf(1, one.span)]), originals: one.originals }));
    await latchEpoch(state, SHED, (current) => ({ record: recordOf(SHED, [...current!.epochs, shedEpochOf(2, two.span)]), originals: two.originals }));
  });

  it('should pass spans written by a latch, and count them', async () => {
    const report = await verifyState(tmp);

    expect(report.problems).toEqual([]);
    expect(report.checked).toMatchObject({ conversations: 2, epochs: 4, spans: 2 });
  });

  it('should fail a span whose files are missing or changed, naming the epoch', async () => {
    await fs.unlink(path.join(state.spansDir, `${one.span.sha256}.md`));
    await fs.writeFile(path.join(state.spansDir, `${two.span.sha256}.json`), 'x');

    const { problems } = await verifyState(tmp);

    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(new RegExp(`epoch #1 span 1\\.\\.6: spans/${one.span.sha256}\\.md is missing`)),
        expect.stringMatching(new RegExp(`spans/${two.span.sha256}\\.json: content hashes to`)),
        // Reported as a changed elided file is: its hash, and the size the record expected.
        expect.stringMatching(new RegExp(`epoch #2 span 7\\.\\.12: spans/${two.span.sha256}\\.json has 1 bytes, the span says ${two.span.bytes}`)),
      ]),
    );
  });

  it('should report a changed span file once, and a missing one as missing, as it does elided files', async () => {
    const text = await fs.readFile(path.join(state.spansDir, `${one.span.sha256}.json`), 'utf8');
    await fs.writeFile(path.join(state.spansDir, `${one.span.sha256}.json`), text.replace(/.$/s, ' '));
    await fs.unlink(path.join(state.spansDir, `${two.span.sha256}.json`));

    const { problems } = await verifyState(tmp);

    expect(problems.filter((p) => p.includes(one.span.sha256))).toEqual([expect.stringMatching(/: content hashes to [0-9a-f]{64}, not to its name$/)]);
    expect(problems.filter((p) => p.includes(two.span.sha256))).toEqual([
      expect.stringMatching(new RegExp(`epoch #2 span 7\\.\\.12: spans/${two.span.sha256}\\.json is missing$`)),
    ]);
  });

  it('should note spans named by no record, as a killed latch leaves them', async () => {
    const orphan = spanFor('orphan', 1, 2);
    await writeSpanFiles(state, orphan.file.sha256, orphan.file.bytes);

    const report = await verifyState(tmp);

    expect(report.problems).toEqual([]);
    expect(report.notes).toContain('spans/: 1 file(s) named by no record (harmless)');
  });

  it('should fail a spans/ that is a file, not a directory', async () => {
    await fs.rm(state.spansDir, { recursive: true });
    await fs.writeFile(state.spansDir, 'x');

    expect((await verifyState(tmp)).problems).toEqual(expect.arrayContaining(['spans/: is a regular file, not a directory']));
  });
});

describe('verifyState, entries that lead elsewhere or would block', () => {
  it('should name a symlinked elided/ and spans/ as symbolic links, not read through them', async () => {
    const elsewhere = await makeTempDir();
    try {
      await fs.rename(state.elidedDir, path.join(elsewhere, 'elided'));
      await fs.symlink(path.join(elsewhere, 'elided'), state.elidedDir);
      await fs.mkdir(path.join(elsewhere, 'spans'));
      await fs.symlink(path.join(elsewhere, 'spans'), state.spansDir);

      const report = await verifyState(tmp);

      expect(report.problems).toEqual(
        expect.arrayContaining([
          'elided/: is a symbolic link, not a directory (ctxshed never makes one, and never follows one)',
          'spans/: is a symbolic link, not a directory (ctxshed never makes one, and never follows one)',
        ]),
      );
      expect(report.checked.elided).toBe(0);
    } finally {
      await removeTempDir(elsewhere);
    }
  });

  it('should name a FIFO under an elided name and as the wire log as such, promptly, without opening them', async () => {
    const fifo = path.join(state.elidedDir, `${blockSha}.txt`);
    await fs.rm(fifo);
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    await fs.rm(state.wirePath);
    expect(spawnSync('mkfifo', [state.wirePath]).status).toBe(0);

    // Before the kinds were checked first, a read of either would wait forever for a writer.
    const report = await verifyState(tmp);

    expect(report.problems).toEqual(
      expect.arrayContaining([
        `elided/${blockSha}.txt: is a FIFO (named pipe), not a regular file (ctxshed never makes one, and never reads one)`,
        'wire.jsonl: is a FIFO (named pipe), not a regular file (ctxshed never makes one, and never reads one)',
      ]),
    );
  });
});
