/** The epoch engine on OpenAI calls: the same latch and rewrite, by the Responses and chat dialects. */
import fs from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CHAT_API } from '../../src/core/dialects/chat.js';
import { findStubs } from '../../src/core/epochs/inflate.js';
import { RESPONSES_API } from '../../src/core/dialects/responses.js';
import type { ApiDialect } from '../../src/core/dialects/dialect.js';
import type { Usage } from '../../src/core/usage.js';
import { latchedOf, latchHoldOf, stubsOf, engineSettingsOf, EpochEngine, type EngineRequest, type EngineSettings } from '../../src/rescue/index.js';
import type { StateDir } from '../../src/state/layout.js';
import { openStateDir } from '../../src/state/open-state-dir.js';
import { readConversation } from '../../src/state/read-conversation.js';
import { filler, fromUtf8 } from '../core/bodies.js';
import { chatBody, responsesBody } from '../core/openai/openai-bodies.js';
import { validateResponsesInput } from '../support/responses-validator.js';
import { tempStateDir } from '../support/test-proxy.js';
import { inflateFromState } from '../../src/state/inflate-from-state.js';
import { CLASSIC } from '../support/classic-settings.js';
import { blocksOf } from '../../src/core/epoch-items.js';
import { spanOf } from '../../src/core/epoch-items.js';

const SETTINGS: EngineSettings = engineSettingsOf({ ...CLASSIC, window: 10_000 });
const OUTPUTS = Array.from({ length: 10 }, (_, i) => filler(4000, i));

/** An OpenAI reading in the shape the usage tap hands on: cached tokens as the cache read. */
function usage(contextTokens: number): Usage {
  return { inputTokens: 100, cacheCreationInputTokens: 0, cacheReadInputTokens: contextTokens - 100, outputTokens: 5 };
}

let state: StateDir;
let engine: EpochEngine;

beforeEach(async () => {
  state = await openStateDir(await tempStateDir('ctxshed-engine-openai-'));
  engine = new EpochEngine(state, SETTINGS, { now: () => new Date('2026-02-03T04:05:06.000Z') });
});

afterEach(async () => {
  // A conversation's first call writes its preview off the request's path: let it land first.
  await engine.settle();
  await fs.rm(state.root, { recursive: true, force: true, maxRetries: 5 });
});

/** The stubs in a body, by its API's index (a stub's words depend on its label). */
function stubsIn(api: ApiDialect, body: Uint8Array): number {
  const indexed = api.index(body);
  if (indexed.kind !== 'indexed') throw new Error(indexed.detail);
  return findStubs(body, indexed.index).length;
}

describe.each([
  ['Responses', '/v1/responses', RESPONSES_API, (o: readonly unknown[]) => responsesBody(o, { promptCacheKey: 'thread-1', prompt: 'Tour the project.' })],
  ['chat', '/v1/chat/completions', CHAT_API, (o: readonly unknown[]) => chatBody(o, { prompt: 'Tour the project.' })],
])('EpochEngine on %s calls', (_name, target, api, build) => {
  const request = (body: Uint8Array): EngineRequest => ({ method: 'POST', target, headers: { 'session-id': 'thread-1' }, body });

  it('should pass a conversation without epochs through untouched, named by its key', async () => {
    // Arrange
    const body = build(OUTPUTS);

    // Act
    const prepared = await engine.prepare(request(body));

    // Assert
    expect(prepared.body).toBe(body);
    expect(prepared).toMatchObject({ outcome: 'passthrough', reason: 'no_epoch', epochs: 0 });
    expect(prepared.key).toMatch(/^[0-9a-f]{64}$/);
  });

  it('should latch on its reading over the threshold and stub the old outputs, keeping the newest', async () => {
    // Arrange
    const first = await engine.prepare(request(build(OUTPUTS)));
    engine.observe(first, { status: 200, usage: usage(9_000) });

    // Act
    const prepared = await engine.prepare(request(build(OUTPUTS)));

    // Assert
    expect(prepared).toMatchObject({ latched: 1, epochs: 1, rescued: 4, bytesElided: 16_000 });
    const text = fromUtf8(prepared.body);
    expect(stubsIn(api, prepared.body)).toBe(4);
    expect(text).not.toContain(filler(4000, 0));
    expect(text).toContain(filler(4000, 9));
    const record = await readConversation(state, prepared.key!);
    expect(record?.firstPrompt).toBe('Tour the project.');
    expect(blocksOf(record!.epochs[0]!).map((b) => b.toolUseId)).toEqual(['call_0', 'call_1', 'call_2', 'call_3']);
  });

  it('should stub a later, grown request of the conversation the same way', async () => {
    // Arrange
    const first = await engine.prepare(request(build(OUTPUTS)));
    engine.observe(first, { status: 200, usage: usage(9_000) });
    const latched = await engine.prepare(request(build(OUTPUTS)));

    // Act
    const grown = await engine.prepare(request(build([...OUTPUTS, filler(4000, 10)])));

    // Assert
    expect(grown).toMatchObject({ rescued: 4, epochs: 1 });
    expect(latchedOf(grown)).toBeUndefined();
    const before = fromUtf8(latched.body);
    const cut = before.indexOf(filler(4000, 9));
    expect(fromUtf8(grown.body).slice(0, cut)).toBe(before.slice(0, cut));
  });

  it('should not keep the reading of an error response', async () => {
    // Arrange
    const first = await engine.prepare(request(build(OUTPUTS)));
    engine.observe(first, { status: 429, usage: usage(9_000) });

    // Act
    const prepared = await engine.prepare(request(build(OUTPUTS)));

    // Assert
    expect(prepared).toMatchObject({ outcome: 'passthrough', reason: 'no_epoch' });
  });

  it('should shed a span under --mode shed on Responses, and rescue tool outputs on chat, which has no spans', async () => {
    // Arrange: an engine in shed mode, the reading over the threshold.
    const shed = new EpochEngine(state, { ...SETTINGS, mode: 'shed' }, { now: () => new Date('2026-02-03T04:05:06.000Z') });
    const first = await shed.prepare(request(build(OUTPUTS)));
    shed.observe(first, { status: 200, usage: usage(9_000) });

    // Act
    const prepared = await shed.prepare(request(build(OUTPUTS)));
    await shed.settle();

    // Assert
    expect(prepared).toMatchObject({ latched: 1, epochs: 1 });
    expect(latchHoldOf(prepared)).toBeUndefined();
    const record = await readConversation(state, prepared.key!);
    if (api.supports.spans) {
      // A span epoch: one stub item in place of whole items, and the scripted API's rules hold.
      expect(record?.epochs[0]?.kind).toBe('span');
      expect(spanOf(record!.epochs[0]!)).toBeDefined();
      expect(fromUtf8(prepared.body)).toContain('[ctxshed: shed ');
      expect(validateResponsesInput(prepared.body)).toEqual([]);
      expect((await inflateFromState(state, prepared.body)).body).toEqual(build(OUTPUTS));
    } else {
      expect(stubsOf(prepared).rescued).toBeGreaterThan(0);
      expect(record?.epochs[0]?.kind).toBe('tool_results');
      expect(blocksOf(record!.epochs[0]!).length).toBeGreaterThan(0);
    }
  });

  it('should latch at once on a refusal as too long and prepare the request again, smaller', async () => {
    // Arrange: no reading yet, so nothing latched on the threshold.
    const body = build(OUTPUTS);
    const prepared = await engine.prepare(request(body));

    // Act
    const outcome = await engine.prepareAfterOverflow(request(body), prepared, { tokens: 10_001, estimated: true });

    // Assert
    expect(outcome.kind).toBe('retry');
    if (outcome.kind !== 'retry') return;
    expect(outcome.prepared).toMatchObject({ latched: 1, epochs: 1, rescued: 4 });
    expect(outcome.prepared.body.length).toBeLessThan(body.length);
    expect(stubsIn(api, outcome.prepared.body)).toBe(4);
    const record = await readConversation(state, prepared.key!);
    expect(record?.epochs[0]).toMatchObject({ trigger: 'overflow' });
    expect(record?.firstPrompt).toBe('Tour the project.');
  });
});

describe('EpochEngine refaults on Responses calls', () => {
  it('should count a Codex shell call that reads an elided output back', async () => {
    // Arrange: an epoch, then the model cats the first elided output's file.
    const request = (body: Uint8Array): EngineRequest => ({ method: 'POST', target: '/v1/responses', headers: { 'session-id': 'thread-1' }, body });
    const build = (extra: unknown[]): Uint8Array => {
      const body = JSON.parse(fromUtf8(responsesBody(OUTPUTS, { promptCacheKey: 'thread-1', closing: false }))) as { input: unknown[] };
      body.input.push(...extra);
      return new TextEncoder().encode(JSON.stringify(body));
    };
    const first = await engine.prepare(request(build([])));
    engine.observe(first, { status: 200, usage: usage(9_000) });
    const latched = await engine.prepare(request(build([])));
    const sha = blocksOf((await readConversation(state, latched.key!))!.epochs[0]!)[0]!.sha256;
    const readBack = [
      { type: 'function_call', call_id: 'call_back', name: 'exec_command', arguments: JSON.stringify({ cmd: `cat ${state.elidedDir}/${sha}.txt` }) },
      { type: 'function_call_output', call_id: 'call_back', output: 'the text' },
    ];

    // Act
    const prepared = await engine.prepare(request(build(readBack)));
    const again = await engine.prepare(request(build(readBack)));

    // Assert
    expect(prepared.refaults).toEqual([{ toolUseId: 'call_back', epoch: 1, ordinal: 0, sha256: sha, via: 'shell' }]);
    expect(again.refaults ?? []).toEqual([]);
  });
});
