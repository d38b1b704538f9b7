/**
 * After its banner, `rescue` writes nothing to the agent's terminal (issue 41 item 4): with an
 * unreachable upstream, each request printed `ctxshed: upstream request failed ...` into Claude
 * Code's input box. The failures are in the wire log, and `ctxshed statusline` says so. The
 * interactive suites check the same on the real clients' screens (tui-*.test.ts).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI_PATH, runCtxshed } from '../support/cli-process.js';
import { tempStateDir } from '../support/test-proxy.js';

const SESSION = 'quiet-0000-4000-8000-000000000001';

/** Three model calls to $ANTHROPIC_BASE_URL, one after another, as an agent that retries sends them. */
const CLIENT = `
const body = JSON.stringify({ model: 'claude-sonnet-4-5', max_tokens: 16, messages: [{ role: 'user', content: 'hello there' }] });
(async () => {
  for (let i = 0; i < 3; i++) {
    const res = await fetch(process.env.ANTHROPIC_BASE_URL + '/v1/messages', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': 'sk-ant-test-000', 'x-claude-code-session-id': '${SESSION}' },
      body,
    });
    await res.text();
    process.stdout.write(res.status + '\\n');
  }
})();
`;

describe('ctxshed rescue, after its banner', () => {
  it('should write nothing to the terminal when the upstream cannot be reached, and say so in the wire log and the status line', async () => {
    const state = await tempStateDir();

    const result = await runCtxshed(['rescue', '--state', state, '--upstream', 'http://127.0.0.1:9', '--', process.execPath, '-e', CLIENT]);
    const line = spawnSync(process.execPath, [CLI_PATH, 'statusline', '--state', state], { input: JSON.stringify({ session_id: SESSION }), encoding: 'utf8' });

    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe('502\n502\n502\n');
    // The banner's four lines (the proxy, when epochs latch, the metrics, no grant for this client), and not one more.
    // Each is wrapped at words to 80 columns, what follows indented.
    const lines = result.stderr.trimEnd().split('\n');
    expect(
      lines.filter((l) => l.startsWith('ctxshed: ')),
      result.stderr,
    ).toHaveLength(4);
    expect(
      lines.every((l) => l.startsWith('ctxshed: ') || l.startsWith('  ')),
      result.stderr,
    ).toBe(true);
    expect(result.stderr).not.toContain('upstream request failed');
    const wire = fs
      .readFileSync(path.join(state, 'wire.jsonl'), 'utf8')
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { status?: number; error?: string });
    expect(wire.map((r) => [r.status, r.error])).toEqual(Array.from({ length: 3 }, () => [502, 'UPSTREAM_CONNECT_FAILED']));
    expect(line.stdout).toMatch(/^ctxshed on · .* · upstream failed \(502\)\n$/);
  });

  it("should not print Node's own process warnings once the child runs", () => {
    const script = `import('${path.join(path.dirname(CLI_PATH), '../wrapper/quiet-terminal.js')}').then((m) => { m.silenceProcessWarnings(); process.emitWarning('a warning ctxshed would have printed'); });`;

    const loud = spawnSync(process.execPath, ['-e', "process.emitWarning('a warning ctxshed would have printed')"], { encoding: 'utf8' });
    const quiet = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });

    expect(loud.stderr).toContain('a warning ctxshed would have printed'); // so the test can fail
    expect({ code: quiet.status, stderr: quiet.stderr }).toEqual({ code: 0, stderr: '' });
  });
});
