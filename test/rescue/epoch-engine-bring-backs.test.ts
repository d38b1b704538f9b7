/** The epoch engine counts what the model brings back into the conversation's record (docs/shed.md, "The working set"). */
import fs from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Usage } from '../../src/core/usage.js';
import { engineSettingsOf, EpochEngine, type EngineRequest, type EngineSettings } from '../../src/rescue/index.js';
import type { StateDir } from '../../src/state/layout.js';
import { openStateDir } from '../../src/state/open-state-dir.js';
import { readConversation } from '../../src/state/read-conversation.js';
import { conversation, filler, fromUtf8, utf8 } from '../core/bodies.js';
import { tempStateDir } from '../support/test-proxy.js';
import { spanOf } from '../../src/core/epoch-items.js';

const SHED: EngineSettings = engineSettingsOf({ window: 10_000, mode: 'shed' });
const contents = (n = 10): string[] => Array.from({ length: n }, (_, i) => (i < 4 ? filler(8000, i) : `small ${i}`));
const BODY = conversation(contents());

const messages = (body: Uint8Array): EngineRequest => ({ method: 'POST', target: '/v1/messages?beta=true', headers: {}, body });
const usage = (contextTokens: number): Usage => ({ inputTokens: 10, cacheCreationInputTokens: 0, cacheReadInputTokens: contextTokens - 10, outputTokens: 5 });

/** BODY, then one restore turn per id: the model restores `sha` and gets the span back. */
function withRestores(sha: string, ids: readonly string[]): Uint8Array {
  const parsed = JSON.parse(fromUtf8(BODY)) as { messages: unknown[] };
  for (const id of ids) {
    parsed.messages.push({ role: 'assistant', content: [{ type: 'tool_use', id, name: 'mcp__ctxshed__restore', input: { handle: sha } }] });
    parsed.messages.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: 'the span, again' }] });
  }
  return utf8(JSON.stringify(parsed));
}

let state: StateDir;
let failures: unknown[];
beforeEach(async () => {
  state = await openStateDir(await tempStateDir('ctxshed-engine-bring-backs-'));
  failures = [];
});
afterEach(async () => {
  await fs.rm(state.root, { recursive: true, force: true, maxRetries: 5 });
});

describe('EpochEngine bring-back counts', () => {
  it("should count each restore call once in the record's bringBacks, a resent request counting nothing again", async () => {
    const engine = new EpochEngine(state, SHED, { now: () => new Date('2026-02-03T04:05:06.000Z'), onStateFailure: (e) => failures.push(e) });
    const first = await engine.prepare(messages(BODY));
    engine.observe(first, { status: 200, usage: usage(9_000) });
    const latched = await engine.prepare(messages(BODY));
    const sha = spanOf((await readConversation(state, latched.key!))!.epochs[0]!)!.sha256;

    await engine.prepare(messages(withRestores(sha, ['r1'])));
    await engine.prepare(messages(withRestores(sha, ['r1'])));
    expect((await readConversation(state, latched.key!))?.bringBacks).toEqual({ [sha]: 1 });

    await engine.prepare(messages(withRestores(sha, ['r1', 'r2'])));
    expect((await readConversation(state, latched.key!))?.bringBacks).toEqual({ [sha]: 2 });
    expect(failures).toEqual([]);
    await engine.settle();
  });
});
