import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCtxshed } from '../support/cli-process.js';
import { tempStateDir } from '../support/test-proxy.js';

const EXAMPLE = fileURLToPath(new URL('../../state.example', import.meta.url));
const SPAN = 'a79312205cab6d49906a10d19e1296195e9e49b6f0f8495a2da9ff234974e6a1';

interface VerifyJson {
  ok: boolean;
  problems: string[];
  checked: { conversations: number; epochs: number; blocks: number; elided: number; spans: number };
}

describe('state.example', () => {
  it('should be a state directory that ctxshed verify accepts, with a rescue and a shed conversation', async () => {
    const result = await runCtxshed(['verify', '--state', EXAMPLE, '--json']);

    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout) as VerifyJson;
    expect(report.ok).toBe(true);
    expect(report.checked.conversations).toBe(2);
    expect(report.checked.blocks).toBe(report.checked.elided);
    expect(report.checked.spans).toBe(1);
  });

  it('should fail a copy whose span is changed or whose rendering is gone, naming the epoch that needs it', async () => {
    const copy = await tempStateDir('ctxshed-example-copy-');
    await fs.cp(EXAMPLE, copy, { recursive: true });
    await fs.appendFile(path.join(copy, 'spans', `${SPAN}.json`), ' ');
    await fs.unlink(path.join(copy, 'spans', `${SPAN}.md`));

    const result = await runCtxshed(['verify', '--state', copy, '--json']);

    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout) as VerifyJson;
    expect(report.problems).toEqual([
      expect.stringMatching(new RegExp(`^spans/${SPAN}\\.json: content hashes to [0-9a-f]{64}, not to its name$`)),
      expect.stringMatching(new RegExp(`: epoch #1 span 1\\.\\.16: spans/${SPAN}\\.json has 71976 bytes, the span says 71975$`)),
      expect.stringMatching(new RegExp(`: epoch #1 span 1\\.\\.16: spans/${SPAN}\\.md is missing$`)),
    ]);
    await fs.rm(copy, { recursive: true, force: true });
  });
});
