import { describe, expect, it } from 'vitest';
import { codexLaunch } from '../../src/cli/codex-launch.js';
import { unproxiedChild } from '../../src/cli/unproxied-launch.js';

const env = { PATH: '/bin', ANTHROPIC_BASE_URL: 'https://elsewhere.example', CODEX_HOME: '/nonexistent-ctxshed-codex-home' };

describe('unproxiedChild, the child rescue runs when the proxy cannot start', () => {
  it('should give a non-Codex command the --upstream the user named as ANTHROPIC_BASE_URL', () => {
    const child = unproxiedChild({ command: 'claude', args: ['-p', 'x'], env }, 'http://127.0.0.1:41901', undefined);

    expect(child).toEqual({ command: 'claude', args: ['-p', 'x'], env: { ...env, ANTHROPIC_BASE_URL: 'http://127.0.0.1:41901' } });
  });

  it('should leave the child as it was when no --upstream was named', () => {
    const plain = { command: 'claude', args: ['-p', 'x'], env };

    expect(unproxiedChild(plain, undefined, undefined)).toBe(plain);
  });

  it("should give Codex the --upstream as its openai_base_url, in place of the user's own -c", async () => {
    const args = ['exec', '-c', 'openai_base_url="https://theirs.example/v1"', 'hi'];
    const codex = await codexLaunch('codex', args, 'http://127.0.0.1:41901/v1', env);

    const child = unproxiedChild({ command: 'codex', args, env }, 'http://127.0.0.1:41901/v1', codex);

    expect(child.args).toEqual(['-c', 'openai_base_url="http://127.0.0.1:41901/v1"', 'exec', 'hi']);
    expect(child.env).toBe(env);
  });
});
