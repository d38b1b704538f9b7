import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EPOCH_KIND_INFO } from '../../src/core/epochs/kind-info.js';
import type { FrozenThinking } from '../../src/core/thinking/thinking-types.js';
import { FileAvailability, type OriginalChange } from '../../src/rescue/file-availability.js';
import { writeElidedFile } from '../../src/state/elided-file.js';
import { openStateDir, type StateDir } from '../../src/state/open-state-dir.js';
import { sealBlock } from '../../src/state/seal-block.js';
import { sha256Hex } from '../../src/state/sha256-hex.js';
import { writeSpanFiles } from '../support/span-files.js';
import { writeOriginals } from '../../src/state/write-originals.js';
import { blockFor, makeTempDir, removeTempDir, spanFor } from '../state/fixtures/state-fixtures.js';

const TOOL_RESULTS = EPOCH_KIND_INFO.tool_results;
const SPAN = EPOCH_KIND_INFO.span;
const THINKING = EPOCH_KIND_INFO.thinking_only;

let tmp: string;
let state: StateDir;
let changes: OriginalChange[];
let files: FileAvailability;
beforeEach(async () => {
  tmp = await makeTempDir();
  state = await openStateDir(tmp);
  changes = [];
  files = new FileAvailability(state, undefined, (change) => changes.push(change));
});
afterEach(async () => {
  await removeTempDir(tmp);
});

describe('FileAvailability, one check for every kind', () => {
  it('should know a tool result whose text is there, and not one whose text is missing', async () => {
    const there = blockFor('kept text', 0);
    const gone = blockFor('never written', 1);
    await writeElidedFile(state, there.file.sha256, there.file.bytes);
    await files.checkItems(TOOL_RESULTS, [there.block, gone.block]);
    expect(files.hasItem(TOOL_RESULTS, there.block)).toBe(true);
    expect(files.hasItem(TOOL_RESULTS, gone.block)).toBe(false);
  });

  it('should count a sealed text as there: its stub is still sent', async () => {
    const sealed = blockFor('sealed text', 0);
    await writeElidedFile(state, sealed.file.sha256, sealed.file.bytes);
    await sealBlock(state, sealed.file.sha256, { reason: null, now: '2026-01-01T00:00:00.000Z' });
    await files.checkItems(TOOL_RESULTS, [sealed.block]);
    expect(files.hasItem(TOOL_RESULTS, sealed.block)).toBe(true);
  });

  it('should want both files of a span: without its .md the span is not available', async () => {
    const { span, file } = spanFor('a', 1, 4);
    await writeSpanFiles(state, file.sha256, file.bytes);
    await fs.rm(path.join(state.spansDir, `${span.sha256}.md`));
    await files.checkItems(SPAN, [span]);
    expect(files.hasItem(SPAN, span)).toBe(false);
    await writeSpanFiles(state, file.sha256, file.bytes);
    await files.checkItems(SPAN, [span]);
    expect(files.hasItem(SPAN, span)).toBe(true);
  });

  it('should tell a changed thinking file once, and know it once it is put back', async () => {
    const bytes = Buffer.from('{"type":"thinking","thinking":"why","signature":"s"}');
    const sha256 = sha256Hex(bytes);
    const block: FrozenThinking = { ordinal: 0, messageIndex: 1, blockIndex: 0, type: 'thinking', sha256, jsonBytes: bytes.length };
    await writeOriginals(state, [{ folder: 'thinking', sha256, ext: 'json', bytes }], []);
    await fs.chmod(path.join(state.thinkingDir, `${sha256}.json`), 0o600);
    await fs.writeFile(path.join(state.thinkingDir, `${sha256}.json`), Buffer.from(bytes.toString().replace('why', 'who')));
    await files.checkItems(THINKING, [block]);
    await files.checkItems(THINKING, [block]);
    expect(files.hasItem(THINKING, block)).toBe(false);
    expect(changes).toHaveLength(1);
    await fs.writeFile(path.join(state.thinkingDir, `${sha256}.json`), bytes);
    await files.checkItems(THINKING, [block]);
    expect(files.hasItem(THINKING, block)).toBe(true);
  });

  it('should know a tool result whose text a repeat pointer made durable, without asking again', async () => {
    const { block, file } = blockFor('a repeated answer', 0);
    expect(await files.keepRepeats([{ sha256: file.sha256, bytes: file.bytes, ext: 'txt' }])).toBe(true);
    expect(files.hasItem(TOOL_RESULTS, block)).toBe(true);
  });
});
