import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCtxshed } from '../support/cli-process.js';

const EXAMPLE = fileURLToPath(new URL('../../state.example', import.meta.url));

describe('state.example', () => {
  it('should be a state directory that ctxshed verify accepts', async () => {
    const result = await runCtxshed(['verify', '--state', EXAMPLE, '--json']);

    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout) as { ok: boolean; checked: { conversations: number; blocks: number; elided: number } };
    expect(report.ok).toBe(true);
    expect(report.checked.conversations).toBeGreaterThan(0);
    expect(report.checked.blocks).toBe(report.checked.elided);
  });
});
