import fs from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkOriginals } from '../../src/rescue/original-check.js';
import { elidedPath, spanPath, type StateDir } from '../../src/state/layout.js';
import { openStateDir } from '../../src/state/open-state-dir.js';
import { fsStore, type ConversationStore } from '../../src/store/index.js';
import { sha256, utf8 } from '../core/bodies.js';
import { tempStateDir } from '../support/test-proxy.js';

const TEXT = utf8('an original tool result\n'.repeat(40));
const SHA = sha256(TEXT);

let state: StateDir;
let store: ConversationStore;

beforeEach(async () => {
  state = await openStateDir(await tempStateDir('ctxshed-original-check-'));
  store = fsStore(state);
  await fs.writeFile(elidedPath(state, SHA, 'txt'), TEXT);
});

afterEach(async () => {
  await fs.rm(state.root, { recursive: true, force: true, maxRetries: 5 });
});

async function verdictOf(recorded: { bytes?: number } = { bytes: TEXT.byteLength }): Promise<unknown> {
  const verdicts = await checkOriginals(store, [{ id: { kind: 'elided', sha256: SHA, ext: 'txt' }, ...recorded }]);
  return verdicts.get(`elided:${SHA}.txt`);
}

describe('checkOriginals', () => {
  it("should find an original good when its size is its epoch's and its bytes hash to its name", async () => {
    expect(await verdictOf()).toEqual({ kind: 'good' });
  });

  it('should find an original missing when the store does not keep it', async () => {
    await fs.rm(elidedPath(state, SHA, 'txt'));

    expect(await verdictOf()).toEqual({ kind: 'missing' });
  });

  it('should name a size problem when text was appended to the original', async () => {
    await fs.appendFile(elidedPath(state, SHA, 'txt'), 'appended by hand\n');

    expect(await verdictOf()).toEqual({
      kind: 'changed',
      problem: 'original_size',
      detail: `elided/${SHA}.txt holds ${TEXT.byteLength + 17} bytes where its epoch recorded ${TEXT.byteLength}`,
    });
  });

  it('should name a hash problem when the original was changed in place at the same size', async () => {
    const changed = Uint8Array.from(TEXT);
    changed[0] = 'A'.charCodeAt(0);
    await fs.writeFile(elidedPath(state, SHA, 'txt'), changed);

    expect(await verdictOf()).toEqual({
      kind: 'changed',
      problem: 'original_hash',
      detail: `elided/${SHA}.txt hashes to ${sha256(changed)}, not to its name`,
    });
  });

  it('should check the hash even where the record keeps no size', async () => {
    await fs.appendFile(elidedPath(state, SHA, 'txt'), '!');

    expect(await verdictOf({})).toMatchObject({ kind: 'changed', problem: 'original_hash' });
  });

  it("should ask only the presence of a span's rendering, which is not named by its own hash", async () => {
    await fs.mkdir(state.spansDir, { recursive: true });
    await fs.writeFile(spanPath(state, SHA, 'md'), '# a rendering\n');

    const verdicts = await checkOriginals(store, [{ id: { kind: 'span', sha256: SHA, ext: 'md' } }]);

    expect(verdicts.get(`span:${SHA}.md`)).toEqual({ kind: 'good' });
  });
});
