import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { startMessagesApi } from '../../src/scripted/messages-api.js';
import { ScriptedClient } from '../../src/scripted/client.js';
import { composeLines, sessionIdOf } from '../../src/cli/statusline-command.js';
import { CLI_PATH } from '../support/cli-process.js';
import { startTestProxy, tempStateDir, testConfig, waitForWire } from '../support/test-proxy.js';

const SESSION = 'b1d0c0de-0000-4000-8000-00000000cafe';

function statusline(state: string, session: string | undefined): string {
  const input = JSON.stringify({ session_id: session, transcript_path: '/tmp/x.jsonl', model: { id: 'claude-sonnet-4-5' } });
  const result = spawnSync(process.execPath, [CLI_PATH, 'statusline', '--state', state], { input, encoding: 'utf8' });
  expect({ code: result.status, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
  return result.stdout;
}

describe('ctxshed statusline', () => {
  it("should show the session's own conversation: no epoch below the threshold, then its epoch, fullness and what is kept out", async () => {
    const dir = await tempStateDir('ctxshed-statusline-');
    const upstream = await startMessagesApi();
    const proxy = await startTestProxy(dir, testConfig(upstream.url));
    const lines: string[] = [];
    try {
      const main = new ScriptedClient(proxy.url, { prompt: 'Find the cache bug.', headers: { 'x-claude-code-session-id': SESSION } });
      const other = new ScriptedClient(proxy.url, { prompt: 'Another session.', headers: { 'x-claude-code-session-id': 'other' } });
      lines.push(statusline(dir, SESSION));
      await main.turnOnce();
      await other.turnOnce();
      await proxy.engine.settle();
      await waitForWire(dir, main.sent.length + other.sent.length);
      lines.push(statusline(dir, SESSION));
      for (let i = 0; i < 30; i++) await main.turnOnce();
      await waitForWire(dir, main.sent.length + other.sent.length);
      lines.push(statusline(dir, SESSION));
    } finally {
      await proxy.close();
      await upstream.close();
    }

    expect(lines[0]).toBe('ctxshed on · no request yet\n');
    expect(lines[1]).toMatch(/^ctxshed on · \d+\.\d% of 20k · no epoch yet\n$/);
    expect(lines[2]).toMatch(/^ctxshed · epoch [1-9]\d* · \d+\.\d% of 20k · \d+(\.\d)? KiB kept out\n$/);
    expect(statusline(dir, undefined)).toBe('ctxshed on\n');
  });

  it("should read Claude Code's session_id, and nothing from what is not JSON", () => {
    expect(sessionIdOf('{"session_id":"abc","model":{}}')).toBe('abc');
    expect(sessionIdOf('not json')).toBeUndefined();
    expect(sessionIdOf('{"session_id":7}')).toBeUndefined();
  });

  it("should put ours after the first line of the user's own status line, and keep their other lines", () => {
    expect(composeLines('theirs\nsecond\n', 'ours')).toBe('theirs  ours\nsecond');
    expect(composeLines('', 'ours')).toBe('ours');
    expect(composeLines(undefined, 'ours')).toBe('ours');
  });
});
