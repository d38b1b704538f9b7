import fs from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { checkEpochLedger } from '../../src/core/labels/ledger.js';
import { DROP_STUB_PREFIX, elidedTextPath, STUB_PREFIX } from '../../src/core/stub-paths.js';
import { LABELS_POLICY_VERSION } from '../../src/core/labels/label-types.js';
import { RESTORE_TOOL_NAME } from '../../src/core/detect-refaults.js';
import type { Usage } from '../../src/core/usage.js';
import { latchedOf, engineSettingsOf, EpochEngine, type EngineRequest, type EngineSettings, type Prepared } from '../../src/rescue/index.js';
import { elidedPath, type StateDir } from '../../src/state/layout.js';
import { openStateDir } from '../../src/state/open-state-dir.js';
import { readConversation } from '../../src/state/read-conversation.js';
import { conversation, filler, fromUtf8, sha256 } from '../core/bodies.js';
import { recordingMetrics } from '../support/recording-metrics.js';
import { tempStateDir } from '../support/test-proxy.js';
import { CLASSIC } from '../support/classic-settings.js';
import { blocksOf } from '../../src/core/epoch-items.js';

/** A small window, so a reading of a few thousand tokens crosses 70% of it. */
const SETTINGS: EngineSettings = engineSettingsOf({ ...CLASSIC, window: 10_000 });
const LATCH_TIME = new Date('2026-02-03T04:05:06.000Z');

/** Ten tool results of 4,000 bytes: the 4 older than the newest 6 are eligible. */
const BODY = conversation(Array.from({ length: 10 }, (_, i) => filler(4000, i)));

function messages(body: Uint8Array, headers: EngineRequest['headers'] = {}): EngineRequest {
  return { method: 'POST', target: '/v1/messages?beta=true', headers, body };
}

function usage(contextTokens: number): Usage {
  return { inputTokens: 10, cacheCreationInputTokens: 0, cacheReadInputTokens: contextTokens - 10, outputTokens: 5 };
}

let state: StateDir;
let engine: EpochEngine;
let failures: unknown[];

beforeEach(async () => {
  state = await openStateDir(await tempStateDir('ctxshed-engine-'));
  failures = [];
  engine = new EpochEngine(state, SETTINGS, { now: () => LATCH_TIME, onStateFailure: (e) => failures.push(e) });
});

afterEach(async () => {
  // A conversation's first call writes its preview off the request's path: let it land first.
  await engine.settle();
  await fs.rm(state.root, { recursive: true, force: true, maxRetries: 5 });
});

/** The first request, then its response's reading at 90% of the window. */
async function firstTurnAt90(body: Uint8Array = BODY): Promise<Prepared> {
  const first = await engine.prepare(messages(body));
  engine.observe(first, { status: 200, usage: usage(9_000) });
  return first;
}

describe('EpochEngine.prepare', () => {
  it('should send the input bytes untouched when the conversation has no epoch', async () => {
    const request = messages(BODY);

    const prepared = await engine.prepare(request);

    expect(prepared.body).toBe(request.body);
    expect(prepared).toMatchObject({ route: 'messages', outcome: 'passthrough', reason: 'no_epoch', epochs: 0, window: 10_000 });
    expect(prepared.key).toMatch(/^[0-9a-f]{64}$/);
  });

  it('should pass through what is not a model call, and an encoded body', async () => {
    const get = await engine.prepare({ method: 'GET', target: '/v1/models', headers: {}, body: new Uint8Array(0) });
    const encoded = await engine.prepare(messages(BODY, { 'content-encoding': 'gzip' }));

    expect(get).toMatchObject({ route: undefined, reason: 'not_a_model_call' });
    expect(encoded).toMatchObject({ route: 'messages', reason: 'encoded_body', detail: 'gzip' });
    expect(encoded.body).toBe(BODY);
  });

  it('should latch an epoch over the threshold and send stubs in place of the old tool results', async () => {
    await firstTurnAt90();

    const prepared = await engine.prepare(messages(BODY));

    expect(prepared).toMatchObject({ latched: 1, epochs: 1, rescued: 4, bytesElided: 16_000 });
    expect(prepared.outcome).toBe('rewritten');
    const text = fromUtf8(prepared.body);
    // Version 3 stubs: this filler is random enough to count as key material, so they are drops.
    expect(text.split(STUB_PREFIX).length - 1 + text.split(DROP_STUB_PREFIX).length - 1).toBe(4);
    expect(text).toContain(filler(4000, 9)); // the newest stay
    expect(text).not.toContain(filler(4000, 0));
  });

  it('should latch a labelled epoch (policy version 3): each block labelled by the local rules, with its ledger', async () => {
    // Arrange: ten reads of code; the oldest text comes back as the newest, so it is a duplicate.
    const code = (i: number): string => `export const value${i} = ${i};\n`.repeat(200);
    const body = conversation(Array.from({ length: 10 }, (_, i) => code(i === 9 ? 0 : i)));
    await firstTurnAt90(body);

    // Act
    const prepared = await engine.prepare(messages(body));

    // Assert
    const [epoch] = (await readConversation(state, prepared.key ?? ''))?.epochs ?? [];
    expect(epoch?.policy.version).toBe(LABELS_POLICY_VERSION);
    expect(blocksOf(epoch!).map((b) => [b.ordinal, b.label, b.rule, b.tool, b.input, b.refetch])).toEqual([
      [0, 'drop', 'duplicate', 'Read', '/p/0.ts', 'same-call'],
      [1, 'pointer', 'default', 'Read', '/p/1.ts', 'same-call'],
      [2, 'pointer', 'default', 'Read', '/p/2.ts', 'same-call'],
      [3, 'pointer', 'default', 'Read', '/p/3.ts', 'same-call'],
    ]);
    expect(checkEpochLedger(epoch!)).toEqual([]);
    expect(fromUtf8(prepared.body)).toContain(`${DROP_STUB_PREFIX}Read \\"/p/0.ts\\" (the same text appears later)`);
  });

  it('should have every elided file and the record on disk when it returns the rewritten body', async () => {
    await firstTurnAt90();

    const prepared = await engine.prepare(messages(BODY));

    const record = await readConversation(state, prepared.key ?? '');
    expect(record?.epochs.map((e) => [e.n, e.latchedAt, blocksOf(e).length])).toEqual([[1, LATCH_TIME.toISOString(), 4]]);
    for (const block of blocksOf(record!.epochs[0]!)) {
      const bytes = await fs.readFile(elidedPath(state, block.sha256, 'txt'));
      expect(sha256(bytes)).toBe(block.sha256);
      expect(fromUtf8(prepared.body)).toContain(block.sha256);
    }
  });

  it("should give count_tokens its conversation's rewrite but never latch on it", async () => {
    await firstTurnAt90();
    const count = (): EngineRequest => ({ ...messages(BODY), target: '/v1/messages/count_tokens' });

    const before = await engine.prepare(count());
    await engine.prepare(messages(BODY));
    const after = await engine.prepare(count());

    expect(before).toMatchObject({ route: 'count_tokens', reason: 'no_epoch', epochs: 0 });
    expect(latchedOf(before)).toBeUndefined();
    expect(after).toMatchObject({ route: 'count_tokens', epochs: 1, rescued: 4 });
    expect(latchedOf(after)).toBeUndefined();
  });

  it('should count an epoch once, when it latches, with its blocks and text bytes, and not on the requests that carry it', async () => {
    const metrics = recordingMetrics();
    const counted = new EpochEngine(state, SETTINGS, { now: () => LATCH_TIME, metrics });
    const first = await counted.prepare(messages(BODY));
    counted.observe(first, { status: 200, usage: usage(9_000) });

    const latching = await counted.prepare(messages(BODY));
    const carrying = await counted.prepare(messages(BODY));

    expect(latchedOf(latching)).toBe(1);
    expect(carrying).toMatchObject({ epochs: 1, rescued: 4 });
    expect(metrics.calls).toEqual([['epochLatched', 'rescue', 'threshold', 4, 16_000]]);
  });

  it('should measure against the 1M window when the request asks for the context-1m beta', async () => {
    const wide = new EpochEngine(state, engineSettingsOf(CLASSIC));

    const prepared = await wide.prepare(messages(BODY, { 'anthropic-beta': 'context-1m-2025-08-07' }));

    expect(prepared.window).toBe(1_000_000);
  });

  it('should measure Opus 5.5 against its 1M window with no beta, and --window over the model', async () => {
    const opus = new TextEncoder().encode(fromUtf8(BODY).replace('"model":"claude-test"', '"model":"claude-opus-5-5"'));
    const wide = new EpochEngine(state, engineSettingsOf(CLASSIC));

    const prepared = await wide.prepare(messages(opus));
    const forced = await engine.prepare(messages(opus));

    expect(prepared.window).toBe(1_000_000);
    expect(forced.window).toBe(10_000);
  });

  it('should read each turn of a conversation for its last model, from where the turn before it stops agreeing', async () => {
    const wide = new EpochEngine(state, engineSettingsOf(CLASSIC));
    const text = fromUtf8(BODY);
    const withModelLast = (model: string): Uint8Array => new TextEncoder().encode(`${text.slice(0, -1)},"model":"${model}"}`);

    const first = await wide.prepare(messages(BODY));
    const late = await wide.prepare(messages(withModelLast('claude-opus-5-5')));
    const again = await wide.prepare(messages(withModelLast('claude-opus-5-5')));
    const back = await wide.prepare(messages(BODY));

    expect([first.window, late.window, again.window, back.window]).toEqual([200_000, 1_000_000, 1_000_000, 200_000]);
    expect(new Set([first.key, late.key, again.key, back.key]).size).toBe(1);
  });

  it('should latch on --rescue-tokens under the percentage, and record that the token threshold fired', async () => {
    const byTokens = new EpochEngine(state, engineSettingsOf({ ...CLASSIC, window: 10_000, rescueTokens: 3_000 }), { now: () => LATCH_TIME });
    const first = await byTokens.prepare(messages(BODY));
    byTokens.observe(first, { status: 200, usage: usage(4_000) });

    const latching = await byTokens.prepare(messages(BODY));
    const record = await readConversation(state, latching.key ?? '');

    expect(latching).toMatchObject({ latched: 1, rescued: 4 });
    expect(record?.epochs[0]?.reason).toEqual({
      fullness: 0.4,
      threshold: 0.7,
      window: 10_000,
      contextTokens: 4_000,
      crossed: 'tokens',
      thresholdTokens: 3_000,
    });
  });

  it('should not latch under both thresholds', async () => {
    const byTokens = new EpochEngine(state, engineSettingsOf({ ...CLASSIC, window: 10_000, rescueTokens: 5_000 }), { now: () => LATCH_TIME });
    const first = await byTokens.prepare(messages(BODY));
    byTokens.observe(first, { status: 200, usage: usage(4_999) });

    const next = await byTokens.prepare(messages(BODY));

    expect(next).toMatchObject({ reason: 'no_epoch', epochs: 0 });
  });

  it('should tell subagents apart by their agent id header', async () => {
    const main = await engine.prepare(messages(BODY));
    const agent = await engine.prepare(messages(BODY, { 'x-claude-code-agent-id': 'agent-1' }));

    expect(agent.agentId).toBe('agent-1');
    expect(agent.key).not.toBe(main.key);
  });

  it('should pass through a body it cannot read, with the input bytes', async () => {
    const bytes = new TextEncoder().encode('{"messages": [ {"role": "user", "content": "hi"} ');

    const prepared = await engine.prepare(messages(bytes));

    expect(prepared.body).toBe(bytes);
    expect(prepared.outcome).not.toBe('rewritten');
    expect(failures).toEqual([]);
  });
});

describe('EpochEngine.prepare, from the last rewrite', () => {
  /** The conversation after `n` of twelve 4,000-byte tool turns (each request the last plus a turn). */
  const grown = (n: number): Uint8Array => conversation(Array.from({ length: 12 }, (_, i) => filler(4000, i)).slice(0, n));

  it('should rewrite the next request of a conversation from its memo, to the bytes a fresh engine sends', async () => {
    await firstTurnAt90(grown(10));
    const latching = await engine.prepare(messages(grown(10)));

    const next = await engine.prepare(messages(grown(11)));

    const fresh = new EpochEngine(state, SETTINGS, { now: () => LATCH_TIME });
    const expected = await fresh.prepare(messages(grown(11)));
    expect(latching).toMatchObject({ latched: 1, rewritePath: 'full' });
    expect(next).toMatchObject({ epochs: 1, rescued: 4, rewritePath: 'incremental' });
    expect(expected).toMatchObject({ rescued: 4, rewritePath: 'full' });
    expect(Buffer.from(next.body).equals(Buffer.from(expected.body))).toBe(true);
    expect(engine.memoUsage().memos).toBe(1);
  });

  it('should keep at most one memo per conversation', async () => {
    await firstTurnAt90(grown(10));
    await engine.prepare(messages(grown(10)));

    for (let n = 11; n <= 12; n++) await engine.prepare(messages(grown(n)));

    expect(engine.memoUsage().memos).toBe(1);
  });

  it("should drop a conversation's memo once it has been idle for the idle limit", async () => {
    let nowMs = LATCH_TIME.getTime();
    const clocked = new EpochEngine(state, SETTINGS, { now: () => new Date(nowMs), memoLimits: { capBytes: 64 * 1024 * 1024, idleMs: 60_000 } });
    const first = await clocked.prepare(messages(grown(10)));
    clocked.observe(first, { status: 200, usage: usage(9_000) });
    await clocked.prepare(messages(grown(10)));

    nowMs += 60_000;
    const later = await clocked.prepare(messages(grown(11)));

    expect(later).toMatchObject({ rescued: 4, rewritePath: 'full' });
    expect(clocked.memoUsage().memos).toBe(1); // the memo of this request, made from scratch
  });

  it("should let pruneMemos drop an idle conversation's memo without a request", async () => {
    let nowMs = LATCH_TIME.getTime();
    const clocked = new EpochEngine(state, SETTINGS, { now: () => new Date(nowMs), memoLimits: { capBytes: 64 * 1024 * 1024, idleMs: 60_000 } });
    const first = await clocked.prepare(messages(grown(10)));
    clocked.observe(first, { status: 200, usage: usage(9_000) });
    await clocked.prepare(messages(grown(10)));

    const early = clocked.pruneMemos();
    nowMs += 60_000;
    const late = clocked.pruneMemos();

    expect([early, late]).toEqual([0, 1]);
    expect(clocked.memoUsage()).toEqual({ memos: 0, bytes: 0 });
  });

  it('should keep no memo bigger than its cap, and still rewrite', async () => {
    const tight = new EpochEngine(state, SETTINGS, { now: () => LATCH_TIME, memoLimits: { capBytes: 1000, idleMs: 60_000 } });
    const first = await tight.prepare(messages(grown(10)));
    tight.observe(first, { status: 200, usage: usage(9_000) });
    await tight.prepare(messages(grown(10)));

    const next = await tight.prepare(messages(grown(11)));

    expect(next).toMatchObject({ rescued: 4, rewritePath: 'full' });
    expect(tight.memoUsage()).toEqual({ memos: 0, bytes: 0 });
  });

  it("should not rewrite a new epoch's request from the last epoch's memo, and memo the new one", async () => {
    await firstTurnAt90(grown(10));
    await engine.prepare(messages(grown(10)));
    const second = await engine.prepare(messages(grown(11)));
    engine.observe(second, { status: 200, usage: usage(9_500) });

    const third = await engine.prepare(messages(grown(12)));
    const again = await engine.prepare(messages(grown(12)));

    const fresh = new EpochEngine(state, SETTINGS, { now: () => LATCH_TIME });
    const expected = await fresh.prepare(messages(grown(12)));
    expect(third).toMatchObject({ latched: 2, epochs: 2, rescued: 6, rewritePath: 'full' });
    expect(again).toMatchObject({ epochs: 2, rescued: 6, rewritePath: 'incremental' });
    expect(Buffer.from(third.body).equals(Buffer.from(expected.body))).toBe(true);
    expect(Buffer.from(again.body).equals(Buffer.from(expected.body))).toBe(true);
  });
});

describe('EpochEngine.observe', () => {
  it("should keep the reading of a 200 messages response for the conversation's next request", async () => {
    const prepared = await engine.prepare(messages(BODY));

    engine.observe(prepared, { status: 200, usage: usage(9_000) });

    expect([...engine.conversations()].map((c) => c.reading)).toEqual([{ contextTokens: 9_000, window: 10_000, epochsApplied: 0, requestBytes: BODY.length }]);
  });

  it('should ignore an error response, a response without usage, and count_tokens', async () => {
    const prepared = await engine.prepare(messages(BODY));
    const count = await engine.prepare({ ...messages(BODY), target: '/v1/messages/count_tokens' });

    engine.observe(prepared, { status: 529, usage: usage(9_000) });
    engine.observe(prepared, { status: 200, usage: undefined });
    engine.observe(count, { status: 200, usage: usage(9_000) });

    expect([...engine.conversations()].map((c) => c.reading)).toEqual([undefined]);
  });

  it("should take the request bytes it is given over the body's own length", async () => {
    const prepared = await engine.prepare(messages(BODY));

    engine.observe(prepared, { status: 200, usage: usage(9_000), requestBytes: 123 });

    expect([...engine.conversations()][0]?.reading?.requestBytes).toBe(123);
  });
});

/** BODY grown by one turn: the model's calls (tool_use blocks), then their results. */
function grownBy(calls: ReadonlyArray<{ id: string; name: string; input: object }>, body: Uint8Array = BODY): Uint8Array {
  const value = JSON.parse(fromUtf8(body)) as { messages: unknown[] };
  value.messages.push({ role: 'assistant', content: calls.map((c) => ({ type: 'tool_use', ...c })) });
  value.messages.push({ role: 'user', content: calls.map((c) => ({ type: 'tool_result', tool_use_id: c.id, content: 'read back' })) });
  return new TextEncoder().encode(JSON.stringify(value));
}

describe('EpochEngine.prepareAfterOverflow', () => {
  it('should latch an overflow epoch below the threshold and prepare a smaller retry', async () => {
    const request = messages(BODY);
    const first = await engine.prepare(request);
    // BODY is about 42 KB: 12,000 tokens is 0.29 tokens a byte; its 4 eligible blocks free ~4.6k.
    const overflow = { tokens: 12_000, limit: 10_000 };

    const outcome = await engine.prepareAfterOverflow(request, first, overflow);

    expect(engine.canRescueOverflow(first)).toBe(true);
    expect(outcome.kind).toBe('retry');
    const retry = outcome.kind === 'retry' ? outcome.prepared : first;
    expect(retry).toMatchObject({ latched: 1, epochs: 1, rescued: 4 });
    expect(retry.body.length).toBeLessThan(BODY.length);
    const record = await readConversation(state, retry.key ?? '');
    expect(record?.epochs[0]).toMatchObject({
      trigger: 'overflow',
      reason: { fullness: 1.2, threshold: 0.7, window: 10_000, contextTokens: 12_000, limit: 10_000 },
    });
  });

  it('should decline when the eligible blocks cannot bring the request under the maximum, and latch nothing', async () => {
    const request = messages(BODY);
    const first = await engine.prepare(request);

    const outcome = await engine.prepareAfterOverflow(request, first, { tokens: 40_000, limit: 10_000 });

    expect(outcome).toMatchObject({ kind: 'declined', why: 'not_enough' });
    expect(await readConversation(state, first.key ?? '')).toBeUndefined();
  });

  it('should decline when every eligible block is frozen already', async () => {
    await firstTurnAt90();
    const request = messages(BODY);
    const latched = await engine.prepare(request);

    const outcome = await engine.prepareAfterOverflow(request, latched, { tokens: 12_000, limit: 10_000 });

    expect(latchedOf(latched)).toBe(1);
    expect(outcome).toMatchObject({ kind: 'declined', why: 'nothing_new' });
  });

  it('should never rescue count_tokens, nor a request that passed through for a reason', async () => {
    const count = { ...messages(BODY), target: '/v1/messages/count_tokens' };
    const counted = await engine.prepare(count);
    const encoded = messages(BODY, { 'content-encoding': 'gzip' });
    const passed = await engine.prepare(encoded);

    expect(engine.canRescueOverflow(counted)).toBe(false);
    expect(engine.canRescueOverflow(passed)).toBe(false);
    expect(await engine.prepareAfterOverflow(count, counted, { tokens: 12_000, limit: 10_000 })).toMatchObject({ kind: 'declined', why: 'not_rescuable' });
  });
});

describe('EpochEngine refaults', () => {
  it('should count a new call that reads an elided block back, once, with its epoch and ordinal', async () => {
    await firstTurnAt90();
    const latched = await engine.prepare(messages(BODY));
    const record = await readConversation(state, latched.key ?? '');
    const elided = blocksOf(record!.epochs[0]!)[1]!;
    const body = grownBy([
      { id: 'toolu_rb1', name: 'Read', input: { file_path: elidedTextPath(state.elidedDir, elided.sha256) } },
      { id: 'toolu_rb2', name: 'Read', input: { file_path: '/p/other.ts' } },
    ]);

    const prepared = await engine.prepare(messages(body));
    const resent = await engine.prepare(messages(body));

    expect(prepared.refaults).toEqual([{ toolUseId: 'toolu_rb1', epoch: 1, ordinal: elided.ordinal, sha256: elided.sha256, via: 'read' }]);
    expect(resent.refaults).toBeUndefined();
  });

  it('should count restore calls and not count count_tokens or a conversation without epochs', async () => {
    const before = grownBy([{ id: 'toolu_rs0', name: RESTORE_TOOL_NAME, input: { handle: 'a'.repeat(64) } }]);
    expect((await engine.prepare(messages(before))).refaults).toBeUndefined();
    await firstTurnAt90();
    const latched = await engine.prepare(messages(BODY));
    const sha = blocksOf((await readConversation(state, latched.key ?? ''))!.epochs[0]!)[0]!.sha256;
    const body = grownBy([{ id: 'toolu_rs1', name: RESTORE_TOOL_NAME, input: { handle: sha.slice(0, 12) } }]);

    const counted = await engine.prepare({ ...messages(body), target: '/v1/messages/count_tokens' });
    const prepared = await engine.prepare(messages(body));

    expect(counted.refaults).toBeUndefined();
    expect(prepared.refaults?.map((r) => [r.toolUseId, r.via])).toEqual([['toolu_rs1', 'restore']]);
  });
});

describe('EpochEngine with watchRecords', () => {
  it('should apply an epoch another engine latched on the same state directory, once the watch reports it', async () => {
    // Arrange: a watching engine knows the conversation without an epoch.
    const watching = new EpochEngine(state, SETTINGS, { now: () => LATCH_TIME, watchRecords: true });
    try {
      const before = await watching.prepare(messages(BODY));
      await firstTurnAt90();

      // Act: another proxy (the test's engine) latches.
      const latched = await engine.prepare(messages(BODY));

      // Assert
      expect(before).toMatchObject({ reason: 'no_epoch', epochs: 0 });
      expect(latched).toMatchObject({ latched: 1, epochs: 1 });
      await vi.waitFor(async () => expect((await watching.prepare(messages(BODY))).epochs).toBe(1));
      const after = await watching.prepare(messages(BODY));
      expect(Buffer.from(after.body).equals(Buffer.from(latched.body))).toBe(true);
    } finally {
      watching.close();
    }
  });

  it('should latch and rewrite as an engine without the watch does', async () => {
    // Arrange
    const watching = new EpochEngine(state, SETTINGS, { now: () => LATCH_TIME, watchRecords: true });
    try {
      const first = await watching.prepare(messages(BODY));
      watching.observe(first, { status: 200, usage: usage(9_000) });

      // Act
      const latched = await watching.prepare(messages(BODY));
      const next = await watching.prepare(messages(BODY));

      // Assert
      expect(latched).toMatchObject({ latched: 1, epochs: 1, rescued: 4 });
      expect(next).toMatchObject({ epochs: 1, rescued: 4 });
      expect(Buffer.from(next.body).equals(Buffer.from(latched.body))).toBe(true);
    } finally {
      watching.close();
    }
  });
});
