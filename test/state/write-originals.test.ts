import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderSpanMarkdown } from '../../src/core/shed/render-span-markdown.js';
import { sha256Hex } from '../../src/state/sha256-hex.js';
import { writeOriginals } from '../../src/state/write-originals.js';
import { writeSpanFiles } from '../support/span-files.js';
import { modeOf, useStateDir, withUmask } from './fixtures/state-fixtures.js';

const SPAN = Buffer.from(
  '{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Read","input":{}}]},\n{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"x"}]}',
);
const SHA = sha256Hex(SPAN);

const dirs = useStateDir();

describe("writeOriginals, a span epoch's two files", () => {
  it('should create spans/ (0700) and write <sha256>.json with the exact bytes and <sha256>.md with their rendering (0600)', async () => {
    await withUmask(0o000, () => writeSpanFiles(dirs.state, SHA, SPAN));

    const exact = path.join(dirs.state.spansDir, `${SHA}.json`);
    const readable = path.join(dirs.state.spansDir, `${SHA}.md`);
    expect(await fs.readFile(exact)).toEqual(SPAN);
    expect(sha256Hex(await fs.readFile(exact))).toBe(SHA);
    expect(await fs.readFile(readable, 'utf8')).toBe(renderSpanMarkdown(SPAN, SHA));
    expect(await modeOf(dirs.state.spansDir)).toBe(0o700);
    expect(await modeOf(exact)).toBe(0o600);
    expect(await modeOf(readable)).toBe(0o600);
  });

  it('should refuse bytes that do not hash to the name, and write nothing', async () => {
    await expect(writeSpanFiles(dirs.state, SHA, Buffer.from('other'))).rejects.toMatchObject({ code: 'STATE_HASH_MISMATCH' });
    await expect(fs.readdir(dirs.state.spansDir)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('should refuse a name that is not a sha256', async () => {
    await expect(writeSpanFiles(dirs.state, '../../x', SPAN)).rejects.toMatchObject({ code: 'STATE_BAD_NAME' });
  });

  it('should keep identical files, and repair a damaged copy of either', async () => {
    await writeSpanFiles(dirs.state, SHA, SPAN);
    const exact = path.join(dirs.state.spansDir, `${SHA}.json`);
    const readable = path.join(dirs.state.spansDir, `${SHA}.md`);
    const before = (await fs.stat(exact)).mtimeMs;

    await writeSpanFiles(dirs.state, SHA, SPAN);
    expect((await fs.stat(exact)).mtimeMs).toBe(before);

    await fs.writeFile(exact, Buffer.alloc(SPAN.length, 0x20));
    await fs.writeFile(readable, 'stale');
    await writeSpanFiles(dirs.state, SHA, SPAN);
    expect(await fs.readFile(exact)).toEqual(SPAN);
    expect(await fs.readFile(readable, 'utf8')).toBe(renderSpanMarkdown(SPAN, SHA));
  });

  it('should refuse a spans/ that is a symbolic link, and files that are', async () => {
    const elsewhere = path.join(dirs.tmp, 'elsewhere');
    await fs.mkdir(elsewhere);
    await fs.symlink(elsewhere, dirs.state.spansDir);
    await expect(writeSpanFiles(dirs.state, SHA, SPAN)).rejects.toMatchObject({ code: 'STATE_SYMLINK' });

    await fs.unlink(dirs.state.spansDir);
    await fs.mkdir(dirs.state.spansDir, { mode: 0o700 });
    await fs.symlink(path.join(elsewhere, 'x'), path.join(dirs.state.spansDir, `${SHA}.md`));
    await expect(writeSpanFiles(dirs.state, SHA, SPAN)).rejects.toMatchObject({ code: 'STATE_SYMLINK' });
    expect(await fs.readdir(elsewhere)).toEqual([]);
  });

  it('should tighten a spans/ made with wider modes', async () => {
    await fs.mkdir(dirs.state.spansDir, { mode: 0o755 });
    await fs.chmod(dirs.state.spansDir, 0o755);

    await writeSpanFiles(dirs.state, SHA, SPAN);

    expect(await modeOf(dirs.state.spansDir)).toBe(0o700);
  });
});

describe('writeOriginals, every kind in one batch', () => {
  const dirs = useStateDir();

  it("should put each original in its kind's folder, note each file it creates, and refuse a lying name before writing any", async () => {
    const text = Buffer.from('an elided tool result\n'.repeat(20));
    const thinking = Buffer.from('{"type":"thinking","thinking":"x","signature":"s"}');
    const created: string[] = [];
    const originals = [
      { folder: 'elided', sha256: sha256Hex(text), ext: 'txt' as const, bytes: text },
      { folder: 'thinking', sha256: sha256Hex(thinking), ext: 'json' as const, bytes: thinking },
    ];

    await expect(writeOriginals(dirs.state, [...originals, { ...originals[0]!, bytes: Buffer.from('other') }], [])).rejects.toMatchObject({
      code: 'STATE_HASH_MISMATCH',
    });
    expect(await fs.readdir(dirs.state.elidedDir)).toEqual([]);
    await writeOriginals(dirs.state, originals, created);

    expect(await fs.readFile(path.join(dirs.state.elidedDir, `${sha256Hex(text)}.txt`))).toEqual(text);
    expect(await fs.readFile(path.join(dirs.state.thinkingDir, `${sha256Hex(thinking)}.json`))).toEqual(thinking);
    expect(created.map((f) => path.relative(dirs.state.root, f)).sort()).toEqual([`elided/${sha256Hex(text)}.txt`, `thinking/${sha256Hex(thinking)}.json`]);
  });
});
