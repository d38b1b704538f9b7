/**
 * The deeper cut through the engine, over a state directory, on each API: an epoch with the deep
 * policy takes old tool inputs' strings and old assistant texts besides tool results; their
 * originals are durable in `elided/` before the record names them; the state verifies; inflate
 * gives back the client's body; a fresh engine sends the same bytes; `restore` gives a tool
 * input back exactly; the output passes a checker written apart from the code and the APIs' rules.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isPart } from '../../src/core/epoch-types.js';
import type { Usage } from '../../src/core/usage.js';
import { engineSettingsOf, EpochEngine, latchedOf, type EngineRequest, type EngineSettings } from '../../src/rescue/index.js';
import { restoreText } from '../../src/restore/restore-text.js';
import { inflateFromState } from '../../src/state/inflate-from-state.js';
import type { StateDir } from '../../src/state/layout.js';
import { openStateDir } from '../../src/state/open-state-dir.js';
import { readConversation } from '../../src/state/read-conversation.js';
import { verifyState } from '../../src/state/verify-state.js';
import { filler, fromUtf8, sha256 } from '../core/bodies.js';
import { chatDeepBody, DEEP_POLICY, messagesDeepBody, responsesDeepBody } from '../core/deep-bodies.js';
import { validateChatMessages } from '../support/chat-validator.js';
import { deepCutViolations, type CheckedApi } from '../support/deep-cut-checker.js';
import { validateMessagesRequest } from '../support/messages-validator.js';
import { validateResponsesInput } from '../support/responses-validator.js';
import { tempStateDir } from '../support/test-proxy.js';
import { blocksOf } from '../../src/core/epoch-items.js';

const SETTINGS: EngineSettings = engineSettingsOf({
  window: 2_000,
  keepRecent: DEEP_POLICY.keepRecent,
  minBytes: DEEP_POLICY.minBytes,
  deep: { ...DEEP_POLICY.deep, parts: [...DEEP_POLICY.deep.parts] },
});
const READING: Usage = { inputTokens: 1_800, cacheCreationInputTokens: 0, cacheReadInputTokens: 0, outputTokens: 5 };

let state: StateDir;

beforeEach(async () => {
  state = await openStateDir(await tempStateDir('ctxshed-engine-deep-'));
});

afterEach(async () => {
  await fs.rm(state.root, { recursive: true, force: true, maxRetries: 5 });
});

function rulesBroken(api: CheckedApi, body: Uint8Array): unknown[] {
  if (api === 'messages') return validateMessagesRequest(body);
  return api === 'responses' ? validateResponsesInput(body) : validateChatMessages(body);
}

describe.each([
  ['messages', '/v1/messages', messagesDeepBody()],
  ['responses', '/v1/responses', responsesDeepBody()],
  ['chat', '/v1/chat/completions', chatDeepBody()],
] as const)('the deeper cut through the engine on %s calls', (api, target, body) => {
  const request = (bytes: Uint8Array): EngineRequest => ({ method: 'POST', target, headers: { 'session-id': 's1' }, body: bytes });

  it('should latch parts with their originals durable, verify, inflate, restore and send the same bytes after a restart', async () => {
    // Arrange: a reading over the threshold, then the same transcript again.
    const engine = new EpochEngine(state, SETTINGS, { now: () => new Date('2026-02-03T04:05:06.000Z') });
    engine.observe(await engine.prepare(request(body)), { status: 200, usage: READING });

    // Act
    const latched = await engine.prepare(request(body));
    await engine.settle();

    // Assert: an epoch with parts, each one's text in elided/ under its sha256, private.
    expect(latchedOf(latched)).toBeDefined();
    const record = (await readConversation(state, latched.key!))!;
    const parts = record.epochs.flatMap((e) => blocksOf(e).filter(isPart));
    expect(new Set(parts.map((p) => p.part))).toEqual(new Set(['tool_input', 'assistant_text']));
    expect(record.epochs[0]!.policy.deep).toEqual(DEEP_POLICY.deep);
    for (const part of parts) {
      const file = path.join(state.root, 'elided', `${part.sha256}.txt`);
      const bytes = await fs.readFile(file);
      expect([sha256(bytes), bytes.length, (await fs.stat(file)).mode & 0o777]).toEqual([part.sha256, part.bytes, 0o600]);
    }
    expect((await verifyState(state.root)).problems).toEqual([]);
    expect((await inflateFromState(state, latched.body)).body).toEqual(body);
    expect(deepCutViolations(body, latched.body, api)).toEqual([]);
    expect(rulesBroken(api, latched.body)).toEqual([]);
    const restart = new EpochEngine(await openStateDir(state.root), SETTINGS);
    expect((await restart.prepare(request(body.slice()))).body).toEqual(latched.body);
    await restart.settle();
    const input = parts.find((p) => p.part === 'tool_input')!;
    const restored = await restoreText(state, input.sha256);
    expect(restored.kind === 'restored' && fromUtf8(restored.bytes)).toBe(fromUtf8(await fs.readFile(path.join(state.root, 'elided', `${input.sha256}.txt`))));
  });
});

describe('the deeper cut of a Write, read back', () => {
  it("should give back the Write's content exactly from the file its stub names", async () => {
    // Arrange
    const engine = new EpochEngine(state, SETTINGS, { now: () => new Date('2026-02-03T04:05:06.000Z') });
    const body = messagesDeepBody();
    const request: EngineRequest = { method: 'POST', target: '/v1/messages', headers: {}, body };
    engine.observe(await engine.prepare(request), { status: 200, usage: READING });

    // Act
    const latched = await engine.prepare(request);
    await engine.settle();

    // Assert: the stub names the file, and the file is the content the model wrote.
    const write = JSON.parse(fromUtf8(latched.body)).messages[1].content[2];
    const file = /read (\/\S+\.txt)\]$/.exec(write.input.content)?.[1];
    expect(file).toBeDefined();
    expect(await fs.readFile(file!, 'utf8')).toBe(filler(400, 1));
  });
});
