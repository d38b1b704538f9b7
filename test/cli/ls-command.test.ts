import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConversationJson } from '../../src/report/report-json.js';
import { readConversation } from '../../src/state/read-conversation.js';
import { layoutPaths } from '../../src/state/layout.js';
import { readWire } from '../support/test-proxy.js';
import { runCli, STATE_EXAMPLE, widest } from './cli-run.js';
import { AGENT_ID, MAIN_PROMPT, makeSessionState, type SessionState } from './session-state.js';
import { blocksOf } from '../../src/core/epoch-items.js';

const EXAMPLE_KEY = 'cbf84ec36c8541e86634fb36f7e8e2e1ee4e82c57470333a5342f9082fcf9ec6';

let session: SessionState;
beforeAll(async () => {
  session = await makeSessionState();
});
afterAll(async () => {
  await fs.rm(session.dir, { recursive: true, force: true });
});

interface LsJson {
  state: string;
  conversations: ConversationJson[];
  warnings: string[];
}

describe('ctxshed ls', () => {
  it('should list the example conversation in a table that fits COLUMNS', async () => {
    const result = await runCli(['ls', '--state', STATE_EXAMPLE], { env: { ...process.env, COLUMNS: '120' } });

    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^KEY +LAST SEEN +FULL +EPOCHS +BLOCKS +ELIDED +REFAULTS +SPANS +REQS +PROMPT\n/);
    expect(result.stdout).toMatch(/\ncbf84ec36c85 .*ago +68\.4% +1 +11 +18\.4 KiB +0\.0% +- +24  Read the files/);
    expect(result.stdout).toMatch(/\n145a183e78ba .*ago +38\.1% +1 +- +- +- +1 +16  Have a look around/);
    expect(result.stdout).toContain("\nShed: 1 span of 16 whole messages; each epoch's bytes, tokens and per-turn price: ctxshed stats.\n");
    expect(widest(result.stdout)).toBeLessThanOrEqual(120);
  });

  it('should give the example as JSON: elided once per epoch, the last fullness, every request', async () => {
    const result = await runCli(['ls', '--state', STATE_EXAMPLE, '--json']);

    const report = JSON.parse(result.stdout) as LsJson;
    expect(report.state).toBe(STATE_EXAMPLE);
    expect(report.conversations.map((c) => c.shortKey)).toEqual(['145a183e78ba', 'cbf84ec36c85']);
    expect(report.conversations[0]).toMatchObject({ mode: 'shed', epochs: 1, blocksElided: 0, bytesElided: 0, spansShed: 1, messagesShed: 16, requests: 16 });
    expect(report.conversations[0]!.spans).toEqual([
      expect.objectContaining({
        epoch: 1,
        first: 1,
        last: 16,
        messages: 16,
        bytes: 71_975,
        perTurn: expect.objectContaining({ basis: 'cache_read_marginal' }) as object,
      }),
    ]);
    expect(report.conversations.slice(1)).toEqual([
      {
        key: EXAMPLE_KEY,
        shortKey: 'cbf84ec36c85',
        agentId: null,
        model: 'claude-sonnet-4-5-20250929',
        firstPrompt: '<system-reminder>Today is a day.</system-reminder> Read the files under src/ and explain the cache module.',
        createdAt: '2026-11-30T04:56:54.020Z',
        firstSeen: '2026-11-30T04:56:53.942Z',
        lastSeen: '2026-11-30T04:56:54.129Z',
        fullness: 0.6841,
        window: 12_000,
        epochs: 1,
        blocksElided: 11,
        bytesElided: 18_864,
        tokensElided: expect.any(Number) as number,
        requests: 24,
        refaults: 0,
        blocksRefaulted: 0,
        refaultRate: 0,
        mode: 'rescue',
        spansShed: 0,
        messagesShed: 0,
        spans: [],
      },
    ]);
    expect(report.warnings).toEqual([]);
  });

  it("should list a recorded session's conversations as its records and wire log tell them", async () => {
    const result = await runCli(['ls', '--state', session.dir, '--json']);

    const { conversations } = JSON.parse(result.stdout) as LsJson;
    const wire = await readWire(session.dir);
    expect(conversations).toHaveLength(2);
    const main = conversations.find((c) => c.agentId === null)!;
    const agent = conversations.find((c) => c.agentId === AGENT_ID)!;
    const record = (await readConversation(layoutPaths(session.dir), main.key))!;
    expect(main.firstPrompt).toContain(MAIN_PROMPT);
    expect(main.epochs).toBe(record.epochs.length);
    expect(main.epochs).toBeGreaterThanOrEqual(2);
    expect(main.blocksElided).toBe(record.epochs.reduce((n, e) => n + blocksOf(e).length, 0));
    expect(main.bytesElided).toBe(record.epochs.reduce((n, e) => n + blocksOf(e).reduce((m, b) => m + b.bytes, 0), 0));
    expect(main.requests).toBe(wire.filter((r) => r['key'] === main.key).length);
    const lastReading = wire.filter((r) => r['key'] === main.key && r['route'] === 'messages').at(-1)!;
    expect(main.fullness).toBe(lastReading['fullness']);
    expect(agent).toMatchObject({ firstPrompt: 'Find every caller of readCache.', epochs: 0, bytesElided: 0 });
    expect(agent.requests).toBe(wire.filter((r) => r['key'] === agent.key).length);
  });

  it('should print the session as text', async () => {
    const result = await runCli(['ls', '--state', session.dir], { env: { ...process.env, COLUMNS: '100' } });

    expect(result.code).toBe(0);
    // The subagent never latched: its prompt comes from its preview (previews/).
    expect(result.stdout).toMatch(/Find every caller of\s+readCache/);
    expect(result.stdout).not.toContain('(prompt unknown)');
    expect(result.stdout).toMatch(/2 conversations, \d+ epochs, \d+ blocks elided/);
    expect(widest(result.stdout)).toBeLessThanOrEqual(100);
  });

  it('should refuse a state directory that does not exist, and not create it', async () => {
    const missing = path.join(session.dir, 'no-such-dir');

    const result = await runCli(['ls', '--state', missing]);

    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`no state directory at ${missing}`);
    await expect(fs.stat(missing)).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
