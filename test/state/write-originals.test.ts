import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { renderSpanMarkdown } from '../../src/core/shed/render-span-markdown.js';
import { openStateDir, type StateDir } from '../../src/state/open-state-dir.js';
import { sha256Hex } from '../../src/state/sha256-hex.js';
import { writeSpanFiles } from '../support/span-files.js';
import { makeTempDir, modeOf, removeTempDir, withUmask } from './fixtures/state-fixtures.js';

const SPAN = Buffer.from(
  '{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Read","input":{}}]},\n{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"x"}]}',
);
const SHA = sha256Hex(SPAN);

let tmp: string;
let state: StateDir;
beforeEach(async () => {
  tmp = await makeTempDir();
  state = await openStateDir(path.join(tmp, 'state'));
});
afterEach(async () => {
  await removeTempDir(tmp);
});

describe("writeOriginals, a span epoch's two files", () => {
  it('should create spans/ (0700) and write <sha256>.json with the exact bytes and <sha256>.md with their rendering (0600)', async () => {
    await withUmask(0o000, () => writeSpanFiles(state, SHA, SPAN));

    const exact = path.join(state.spansDir, `${SHA}.json`);
    const readable = path.join(state.spansDir, `${SHA}.md`);
    expect(await fs.readFile(exact)).toEqual(SPAN);
    expect(sha256Hex(await fs.readFile(exact))).toBe(SHA);
    expect(await fs.readFile(readable, 'utf8')).toBe(renderSpanMarkdown(SPAN, SHA));
    expect(await modeOf(state.spansDir)).toBe(0o700);
    expect(await modeOf(exact)).toBe(0o600);
    expect(await modeOf(readable)).toBe(0o600);
  });

  it('should refuse bytes that do not hash to the name, and write nothing', async () => {
    await expect(writeSpanFiles(state, SHA, Buffer.from('other'))).rejects.toMatchObject({ code: 'STATE_HASH_MISMATCH' });
    await expect(fs.readdir(state.spansDir)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('should refuse a name that is not a sha256', async () => {
    await expect(writeSpanFiles(state, '../../x', SPAN)).rejects.toMatchObject({ code: 'STATE_BAD_NAME' });
  });

  it('should keep identical files, and repair a damaged copy of either', async () => {
    await writeSpanFiles(state, SHA, SPAN);
    const exact = path.join(state.spansDir, `${SHA}.json`);
    const readable = path.join(state.spansDir, `${SHA}.md`);
    const before = (await fs.stat(exact)).mtimeMs;

    await writeSpanFiles(state, SHA, SPAN);
    expect((await fs.stat(exact)).mtimeMs).toBe(before);

    await fs.writeFile(exact, Buffer.alloc(SPAN.length, 0x20));
    await fs.writeFile(readable, 'stale');
    await writeSpanFiles(state, SHA, SPAN);
    expect(await fs.readFile(exact)).toEqual(SPAN);
    expect(await fs.readFile(readable, 'utf8')).toBe(renderSpanMarkdown(SPAN, SHA));
  });

  it('should refuse a spans/ that is a symbolic link, and files that are', async () => {
    const elsewhere = path.join(tmp, 'elsewhere');
    await fs.mkdir(elsewhere);
    await fs.symlink(elsewhere, state.spansDir);
    await expect(writeSpanFiles(state, SHA, SPAN)).rejects.toMatchObject({ code: 'STATE_SYMLINK' });

    await fs.unlink(state.spansDir);
    await fs.mkdir(state.spansDir, { mode: 0o700 });
    await fs.symlink(path.join(elsewhere, 'x'), path.join(state.spansDir, `${SHA}.md`));
    await expect(writeSpanFiles(state, SHA, SPAN)).rejects.toMatchObject({ code: 'STATE_SYMLINK' });
    expect(await fs.readdir(elsewhere)).toEqual([]);
  });

  it('should tighten a spans/ made with wider modes', async () => {
    await fs.mkdir(state.spansDir, { mode: 0o755 });
    await fs.chmod(state.spansDir, 0o755);

    await writeSpanFiles(state, SHA, SPAN);

    expect(await modeOf(state.spansDir)).toBe(0o700);
  });
});
