import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkPlanFiles } from '../../src/state/check-plan-files.js';
import { writeElidedFile } from '../../src/state/elided-file.js';
import { sealBlock } from '../../src/state/seal-block.js';
import { sha256Hex } from '../../src/state/sha256-hex.js';
import { writeSpanFiles } from '../support/span-files.js';
import { blockFor, epochOf, shedEpochOf, spanFor, useStateDir } from './fixtures/state-fixtures.js';

const dirs = useStateDir();

describe('checkPlanFiles', () => {
  it('should pass when every block has its file', async () => {
    const { block, file } = blockFor('some text', 0);
    await writeElidedFile(dirs.state, file.sha256, file.bytes);
    await expect(checkPlanFiles(dirs.state, [epochOf(1, [block])])).resolves.toBeUndefined();
  });

  it('should pass a block whose text was sealed: it is kept in sealed/', async () => {
    const { block, file } = blockFor('some sealed text', 0);
    await writeElidedFile(dirs.state, file.sha256, file.bytes);
    await sealBlock(dirs.state, file.sha256, { reason: null, now: '2026-01-01T00:00:00.000Z' });
    await expect(checkPlanFiles(dirs.state, [epochOf(1, [block])])).resolves.toBeUndefined();
  });

  it('should refuse a block whose .txt is missing', async () => {
    const { block } = blockFor('never written', 0);
    await expect(checkPlanFiles(dirs.state, [epochOf(1, [block])])).rejects.toMatchObject({
      code: 'STATE_BAD_PLAN',
      message: expect.stringContaining(`${block.sha256}.txt (missing)`),
    });
  });

  it('should refuse a block whose .txt has another size than the block says', async () => {
    const { block, file } = blockFor('some text', 0);
    await writeElidedFile(dirs.state, file.sha256, file.bytes);
    await expect(checkPlanFiles(dirs.state, [epochOf(1, [{ ...block, bytes: 3 }])])).rejects.toMatchObject({
      code: 'STATE_BAD_PLAN',
    });
  });

  it('should refuse a block whose rawSha256 .json is missing', async () => {
    const { block, file } = blockFor('some text', 0);
    await writeElidedFile(dirs.state, file.sha256, file.bytes);
    const rawSha256 = sha256Hex(Buffer.from('"some text"'));
    await expect(checkPlanFiles(dirs.state, [epochOf(1, [{ ...block, rawSha256 }])])).rejects.toMatchObject({
      code: 'STATE_BAD_PLAN',
      message: expect.stringContaining(`${rawSha256}.json`),
    });
  });

  it('should not count a symlink as the file', async () => {
    const { block, file } = blockFor('some text', 0);
    const outside = path.join(dirs.tmp, 'outside');
    await fs.writeFile(outside, file.bytes);
    await fs.symlink(outside, path.join(dirs.state.elidedDir, `${file.sha256}.txt`));
    await expect(checkPlanFiles(dirs.state, [epochOf(1, [block])])).rejects.toMatchObject({ code: 'STATE_BAD_PLAN' });
  });

  it('should pass a shed epoch whose span has both its files, and refuse one that lacks either', async () => {
    const { span, file } = spanFor('a', 1, 4);
    await expect(checkPlanFiles(dirs.state, [shedEpochOf(1, span)])).rejects.toMatchObject({
      code: 'STATE_BAD_PLAN',
      message: expect.stringContaining(`spans/${span.sha256}.json (missing)`),
    });

    await writeSpanFiles(dirs.state, file.sha256, file.bytes);
    await expect(checkPlanFiles(dirs.state, [shedEpochOf(1, span)])).resolves.toBeUndefined();

    await fs.unlink(path.join(dirs.state.spansDir, `${span.sha256}.md`));
    await expect(checkPlanFiles(dirs.state, [shedEpochOf(1, span)])).rejects.toMatchObject({
      message: expect.stringContaining(`spans/${span.sha256}.md (missing)`),
    });
  });
});
