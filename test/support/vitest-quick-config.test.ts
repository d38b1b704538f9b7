import { describe, expect, it } from 'vitest';
import { filesRunningTheCli } from '../vitest.quick.config.js';

describe('filesRunningTheCli', () => {
  it('should name the tests that run the built ctxshed as a process, and no other', () => {
    const files = filesRunningTheCli();

    expect(files).toContain('test/cli/ls-command.test.ts');
    expect(files).toContain('test/demo/demo-command.test.ts');
    expect(files).toContain('test/mcp/mcp-server.test.ts');
    // It takes only REPO_ROOT from cli-run.ts, and runs nothing.
    expect(files).not.toContain('test/replay/stitch-transcript.test.ts');
    expect(files).not.toContain('test/report/render-ls.test.ts');
    expect(files.every((f) => f.endsWith('.test.ts'))).toBe(true);
  });
});
