/**
 * State written by an earlier version (test/fixtures/state-v1/README.md and
 * test/fixtures/state-v1-thinking/README.md) still verifies and inflates, and a restarted engine on
 * it sends the very bytes the API got from the proxy that wrote it.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DEFAULT_ENGINE_SETTINGS, EpochEngine } from '../../src/rescue/index.js';
import { upgradeRecord } from '../../src/core/upgrade-record.js';
import { inflateFromState } from '../../src/state/inflate-from-state.js';
import { latchEpoch } from '../../src/state/latch-epoch.js';
import { conversationPath, layoutPaths } from '../../src/state/layout.js';
import { listConversations } from '../../src/state/read-conversation.js';
import { openStateDir } from '../../src/state/open-state-dir.js';
import { verifyState } from '../../src/state/verify-state.js';
import { runCtxshed } from '../support/cli-process.js';
import { tempStateDir } from '../support/test-proxy.js';
import { blockFor, epochOf } from './fixtures/state-fixtures.js';

const FIXTURE = fileURLToPath(new URL('../fixtures/state-v1/', import.meta.url));
const THINKING = fileURLToPath(new URL('../fixtures/state-v1-thinking/', import.meta.url));

/** A private copy: verify may note what it read, and git does not keep the state's 0600 modes. */
async function copyOf(fixture: string): Promise<string> {
  const dir = await tempStateDir('ctxshed-state-v1-');
  await fs.cp(path.join(fixture, 'state'), dir, { recursive: true });
  return dir;
}

/** The state directory the proxy that wrote a body's stubs ran on: the folder its stubs name. */
function stubRootOf(received: string): string {
  const root = /(\/[^"\s\\]+)\/(?:elided|spans)\/[0-9a-f]{64}\.(?:txt|json|md)/.exec(received)?.[1];
  if (root === undefined) throw new Error('no stub names a file');
  return root;
}

/** Each conversation of a fixture: its name, its session header (none in state-v1), its mode. */
const CONVERSATIONS = [
  { fixture: FIXTURE, name: 'rescue', mode: 'rescue', headers: {} },
  { fixture: FIXTURE, name: 'shed', mode: 'shed', headers: {} },
  { fixture: THINKING, name: 'opus-rescue', mode: 'rescue', headers: { 'x-claude-code-session-id': 'opus-rescue' } },
  { fixture: THINKING, name: 'opus-shed', mode: 'shed', headers: { 'x-claude-code-session-id': 'opus-shed' } },
  { fixture: THINKING, name: 'correction', mode: 'rescue', headers: { 'x-claude-code-session-id': 'correction' } },
] as const;

describe('a state directory of the v1 record format', () => {
  it('should verify with no problems, both conversations and both kinds checked', async () => {
    const report = await verifyState(await copyOf(FIXTURE));

    expect(report.problems).toEqual([]);
    expect(report.checked.conversations).toBe(2);
    expect(report.checked.spans).toBe(2);
    expect(report.checked.blocks).toBeGreaterThan(0);
  });

  it('should verify the thinking fixture with no problems, its removed thinking blocks checked', async () => {
    const report = await verifyState(await copyOf(THINKING));

    expect(report.problems).toEqual([]);
    expect(report.checked.conversations).toBe(3);
    expect(report.checked.spans).toBe(1);
  });

  it.each(CONVERSATIONS)('should inflate the $name body the API got back to the bytes the client sent', async ({ fixture, name }) => {
    const dir = await copyOf(fixture);
    const received = await fs.readFile(path.join(fixture, `${name}-received.json`));
    const sent = await fs.readFile(path.join(fixture, `${name}-sent.json`));
    expect(received.equals(sent)).toBe(false);

    const inflated = await inflateFromState(layoutPaths(dir), received);

    expect(Buffer.from(inflated.body).equals(sent)).toBe(true);
  });

  it.each(CONVERSATIONS)('should send the $name body again byte for byte from an engine restarted on the state', async ({ fixture, name, mode, headers }) => {
    const dir = await copyOf(fixture);
    const state = await openStateDir(dir);
    const received = await fs.readFile(path.join(fixture, `${name}-received.json`), 'utf8');
    const sent = await fs.readFile(path.join(fixture, `${name}-sent.json`));
    // The stubs name the state directory's path: the copy's, here, where the original's stood.
    const expected = received.replaceAll(stubRootOf(received), state.root);
    const engine = new EpochEngine(state, { ...DEFAULT_ENGINE_SETTINGS, mode });

    const prepared = await engine.prepare({ method: 'POST', target: '/v1/messages', headers, body: sent });
    await engine.settle();

    expect(prepared.outcome).toBe('rewritten');
    expect(Buffer.from(prepared.body).toString('utf8')).toBe(expected);
  });

  it('should pass ctxshed verify and ctxshed inflate, the commands a person runs', async () => {
    const dir = await copyOf(FIXTURE);

    const verified = await runCtxshed(['verify', '--state', dir, '--json']);
    const inflated = await runCtxshed(['inflate', path.join(FIXTURE, 'shed-received.json'), '--state', dir]);

    expect(verified.code).toBe(0);
    expect(JSON.parse(verified.stdout)).toMatchObject({ ok: true, problems: [] });
    expect(inflated.code).toBe(0);
    expect(inflated.stdout).toBe(await fs.readFile(path.join(FIXTURE, 'shed-sent.json'), 'utf8'));
  });

  it('should write a record it latches again as the current format: its old epochs upgraded, nothing else changed', async () => {
    const dir = await copyOf(FIXTURE);
    const state = await openStateDir(dir);
    const rescue = (await listConversations(state)).find((r) => r.epochs.every((e) => e.kind === 'tool_results'))!;
    const file = conversationPath(state, rescue.key);
    const old: unknown = JSON.parse(await fs.readFile(file, 'utf8'));
    expect(old).toMatchObject({ format: 'ctxshed.conversation/1' });
    const { block, file: elided } = blockFor('a late tool result', 9_999);

    await latchEpoch(state, rescue.key, (current) => ({
      record: { ...current!, epochs: [...current!.epochs, epochOf(current!.epochs.length + 1, [block])] },
      originals: [elided],
    }));

    const written = JSON.parse(await fs.readFile(file, 'utf8')) as { format: string; epochs: unknown[] };
    const upgraded = upgradeRecord(old) as { epochs: unknown[] };
    expect(written.format).toBe('ctxshed.conversation/2');
    expect({ ...written, epochs: written.epochs.slice(0, -1) }).toEqual(upgraded);
    expect((await verifyState(dir)).problems).toEqual([]);
    const received = await fs.readFile(path.join(FIXTURE, 'rescue-received.json'));
    expect(Buffer.from((await inflateFromState(layoutPaths(dir), received)).body).equals(await fs.readFile(path.join(FIXTURE, 'rescue-sent.json')))).toBe(true);
  });
});
