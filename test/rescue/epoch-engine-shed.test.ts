/** The epoch engine in shed mode (docs/shed.md), and rescue mode's --gate. */
import fs from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DROP_STUB_PREFIX, STUB_PREFIX } from '../../src/core/stub-paths.js';
import { indexTranscript } from '../../src/core/messages/transcript-index.js';
import { SPAN_STUB_PREFIX } from '../../src/core/shed/span-stub.js';
import type { Usage } from '../../src/core/usage.js';
import {
  latchedOf,
  stubsOf,
  engineSettingsOf,
  EpochEngine,
  type EngineRequest,
  type EngineSettings,
  type SettingsGiven,
  type Prepared,
} from '../../src/rescue/index.js';
import { spanPath, type StateDir } from '../../src/state/layout.js';
import { openStateDir } from '../../src/state/open-state-dir.js';
import { readConversation } from '../../src/state/read-conversation.js';
import { conversation, filler, fromUtf8, sha256 } from '../core/bodies.js';
import { validateMessagesRequest } from '../support/messages-validator.js';
import { tempStateDir } from '../support/test-proxy.js';
import { CLASSIC } from '../support/classic-settings.js';
import { spanOf } from '../../src/core/epoch-items.js';

const SHED_GIVEN: SettingsGiven = { window: 10_000, mode: 'shed', threshold: 0.7 };
const SHED: EngineSettings = engineSettingsOf(SHED_GIVEN);
const LATCH_TIME = new Date('2026-02-03T04:05:06.000Z');

/**
 * Four old results of 8,000 bytes, then six small ones: a stale middle worth shedding. The recent
 * window's floor (3,000 tokens, about 12 KB) keeps the newest large one (messages 7..): the span is
 * messages 1..6.
 */
const contents = (n = 10): string[] => Array.from({ length: n }, (_, i) => (i < 4 ? filler(8000, i) : `small ${i}`));
const BODY = conversation(contents());

const messages = (body: Uint8Array): EngineRequest => ({ method: 'POST', target: '/v1/messages?beta=true', headers: {}, body });
const usage = (contextTokens: number): Usage => ({ inputTokens: 10, cacheCreationInputTokens: 0, cacheReadInputTokens: contextTokens - 10, outputTokens: 5 });

let state: StateDir;
let failures: unknown[];
beforeEach(async () => {
  state = await openStateDir(await tempStateDir('ctxshed-engine-shed-'));
  failures = [];
});
afterEach(async () => {
  // Engines made in a test write previews off the request's path: retry while one lands.
  await fs.rm(state.root, { recursive: true, force: true, maxRetries: 5 });
});

function engineWith(settings: EngineSettings): EpochEngine {
  return new EpochEngine(state, settings, { now: () => LATCH_TIME, onStateFailure: (e) => failures.push(e) });
}

async function firstTurnAt90(engine: EpochEngine, body: Uint8Array = BODY, contextTokens = 9_000): Promise<Prepared> {
  const first = await engine.prepare(messages(body));
  engine.observe(first, { status: 200, usage: usage(contextTokens) });
  return first;
}

describe('EpochEngine in shed mode', () => {
  it('should latch a shed epoch over the threshold: span files and record on disk, one stub in place of the span', async () => {
    const engine = engineWith(SHED);
    await firstTurnAt90(engine);

    const prepared = await engine.prepare(messages(BODY));

    expect(prepared).toMatchObject({ latched: 1, epochs: 1, rescued: 1 });
    expect(prepared.outcome).toBe('rewritten');
    const record = await readConversation(state, prepared.key!);
    const epoch = record!.epochs[0]!;
    expect(epoch).toMatchObject({ n: 1, kind: 'span', trigger: 'threshold', items: { span: [{ first: 1, last: 6 }] }, gate: { latch: true } });
    expect(stubsOf(prepared).bytesElided).toBe(spanOf(epoch)!.bytes);
    const exact = await fs.readFile(spanPath(state, spanOf(epoch)!.sha256, 'json'));
    expect(sha256(exact)).toBe(spanOf(epoch)!.sha256);
    expect(await fs.readFile(spanPath(state, spanOf(epoch)!.sha256, 'md'), 'utf8')).toContain('## 1. assistant');
    const text = fromUtf8(prepared.body);
    expect(text.split(SPAN_STUB_PREFIX).length - 1).toBe(1);
    expect(text).not.toContain(filler(8000, 0));
    expect(text).toContain('small 9');
    expect(validateMessagesRequest(prepared.body)).toEqual([]);
    expect(failures).toEqual([]);
  });

  it('should give every later request of the conversation the same stub, so the prefix stays', async () => {
    const engine = engineWith(SHED);
    await firstTurnAt90(engine);
    const latched = await engine.prepare(messages(BODY));

    const later = await engine.prepare(messages(conversation(contents(12))));

    expect(later).toMatchObject({ epochs: 1, rescued: 1 });
    expect(latchedOf(later)).toBeUndefined();
    const stubEnd = fromUtf8(latched.body).indexOf('small 4');
    expect(fromUtf8(later.body).slice(0, stubEnd)).toBe(fromUtf8(latched.body).slice(0, stubEnd));
  });

  it('should not burst the cache when the turns left cannot pay it back', async () => {
    const engine = engineWith(engineSettingsOf({ ...SHED_GIVEN, horizon: 0 }));
    await firstTurnAt90(engine, BODY, 8_000);

    const prepared = await engine.prepare(messages(BODY));

    expect(prepared).toMatchObject({ reason: 'no_epoch', epochs: 0 });
    expect(latchedOf(prepared)).toBeUndefined();
  });

  it("should burst anyway from the gate's ceiling on, where the client would compact, and record why", async () => {
    const engine = engineWith(engineSettingsOf({ ...SHED_GIVEN, horizon: 0 }));
    await firstTurnAt90(engine);

    const prepared = await engine.prepare(messages(BODY));

    expect(prepared).toMatchObject({ latched: 1, epochs: 1 });
    const record = await readConversation(state, prepared.key!);
    expect(record!.epochs[0]!.gate).toMatchObject({ latch: true, forcedAt: 0.9, expectedRemainingTurns: 0 });
  });

  it("should pass through when the span's files went missing, and never name them", async () => {
    const engine = engineWith(SHED);
    await firstTurnAt90(engine);
    const latched = await engine.prepare(messages(BODY));
    const record = await readConversation(state, latched.key!);
    await fs.rm(state.spansDir, { recursive: true });

    const request = messages(BODY);
    const after = await engineWith(SHED).prepare(request);

    expect(record).toBeDefined();
    expect(after).toMatchObject({ outcome: 'passthrough', reason: 'span_file_missing', epochs: 1 });
    expect(after.body).toBe(request.body);
  });

  it("should keep rescuing a conversation whose epochs are rescue epochs, whatever the engine's mode", async () => {
    const rescue = engineWith(engineSettingsOf({ ...CLASSIC, window: 10_000 }));
    await firstTurnAt90(rescue);
    await rescue.prepare(messages(BODY));

    const prepared = await engineWith(SHED).prepare(messages(BODY));

    expect(prepared).toMatchObject({ epochs: 1, rescued: 4 });
    // Rescue stubs of any label (a pointer or a drop), and no span stub.
    expect(fromUtf8(prepared.body)).toMatch(new RegExp(`${escapeRegExp(STUB_PREFIX)}|${escapeRegExp(DROP_STUB_PREFIX)}`));
    expect(fromUtf8(prepared.body)).not.toContain(SPAN_STUB_PREFIX);
  });
});

/** Where message `m` of a body ends. */
function endOfMessage(body: Uint8Array, m: number): number {
  const indexed = indexTranscript(body);
  if (indexed.kind !== 'indexed') throw new Error(indexed.detail);
  return indexed.index.messages[m]!.end;
}

/** The bytes of a body's head (messages[0]), which every shed body keeps byte for byte. */
function headOf(body: Uint8Array): string {
  return fromUtf8(body.subarray(0, endOfMessage(body, 0)));
}

describe('EpochEngine in shed mode, rescue on overflow', () => {
  // BODY is about 34 KB, most of it the span: 12,000 tokens is 0.35 tokens a byte, and the span
  // less its stub frees about 11,000 of them.
  const OVERFLOW = { tokens: 12_000, limit: 10_000 };

  it('should latch a span at once on the refusal, below the threshold, and prepare a smaller, valid retry with the head unchanged', async () => {
    const engine = engineWith(SHED);
    const request = messages(BODY);
    const first = await engine.prepare(request);

    const outcome = await engine.prepareAfterOverflow(request, first, OVERFLOW);

    expect(first).toMatchObject({ reason: 'no_epoch', epochs: 0 });
    expect(engine.canRescueOverflow(first)).toBe(true);
    expect(outcome.kind).toBe('retry');
    const retry = outcome.kind === 'retry' ? outcome.prepared : first;
    expect(retry).toMatchObject({ latched: 1, epochs: 1, rescued: 1 });
    expect(retry.outcome).toBe('rewritten');
    expect(retry.body.length).toBeLessThan(BODY.length);
    expect(fromUtf8(retry.body).split(SPAN_STUB_PREFIX).length - 1).toBe(1);
    expect(headOf(retry.body)).toBe(headOf(BODY));
    expect(validateMessagesRequest(retry.body)).toEqual([]);
    const epoch = (await readConversation(state, retry.key!))!.epochs[0]!;
    expect(epoch).toMatchObject({
      n: 1,
      kind: 'span',
      trigger: 'overflow',
      items: { span: [{ first: 1, last: 6 }] },
      reason: { fullness: 1.2, threshold: 0.7, window: 10_000, contextTokens: 12_000, limit: 10_000 },
      gate: { latch: true },
    });
    // The span's exact bytes were on disk before the record named them.
    expect(sha256(await fs.readFile(spanPath(state, spanOf(epoch)!.sha256, 'json')))).toBe(spanOf(epoch)!.sha256);
    expect(failures).toEqual([]);
  });

  it("should latch past a gate that would hold the burst back, and record it as forced at the refusal's fullness", async () => {
    const engine = engineWith(engineSettingsOf({ ...SHED_GIVEN, horizon: 0 }));
    const request = messages(BODY);
    const first = await engine.prepare(request);

    const outcome = await engine.prepareAfterOverflow(request, first, OVERFLOW);

    expect(outcome.kind).toBe('retry');
    const record = await readConversation(state, first.key!);
    expect(record!.epochs[0]!.gate).toMatchObject({ latch: true, expectedRemainingTurns: 0, forcedAt: 1.2 });
  });

  it('should measure against the window when the refusal named no maximum, and record none', async () => {
    const engine = engineWith(SHED);
    const request = messages(BODY);
    const first = await engine.prepare(request);

    const outcome = await engine.prepareAfterOverflow(request, first, { tokens: 12_000 });

    expect(outcome.kind).toBe('retry');
    const epoch = (await readConversation(state, first.key!))!.epochs[0]!;
    expect(epoch).toMatchObject({ trigger: 'overflow', gate: { latch: true } });
    expect(epoch.reason.limit).toBeUndefined();
  });

  it('should decline, writing nothing, when the span cannot bring the request under the maximum', async () => {
    const engine = engineWith(SHED);
    const request = messages(BODY);
    const first = await engine.prepare(request);

    const outcome = await engine.prepareAfterOverflow(request, first, { tokens: 12_000, limit: 100 });

    expect(outcome).toMatchObject({ kind: 'declined', why: 'not_enough' });
    expect(await readConversation(state, first.key!)).toBeUndefined();
    expect(await fs.readdir(state.spansDir).catch(() => [])).toEqual([]);
  });

  it("should decline when no message is left to shed after the conversation's spans", async () => {
    const engine = engineWith(SHED);
    await firstTurnAt90(engine);
    const request = messages(BODY);
    const latched = await engine.prepare(request);

    const outcome = await engine.prepareAfterOverflow(request, latched, OVERFLOW);

    expect(latched).toMatchObject({ latched: 1, rescued: 1 });
    expect(outcome).toMatchObject({ kind: 'declined', why: 'nothing_new', detail: expect.stringContaining('too_few_messages') as unknown });
    expect((await readConversation(state, latched.key!))!.epochs).toHaveLength(1);
  });

  it('should shed a second span after the first when the grown conversation overflows, keeping the first stub byte for byte', async () => {
    const engine = engineWith(SHED);
    await firstTurnAt90(engine);
    const latched = await engine.prepare(messages(BODY));
    // Grown by four more large results and six small ones: a new stale middle after the first span.
    const grown = conversation([...contents(), ...Array.from({ length: 10 }, (_, i) => (i < 4 ? filler(8000, 10 + i) : `small ${10 + i}`))]);
    const request = messages(grown);
    const first = await engine.prepare(request);

    const outcome = await engine.prepareAfterOverflow(request, first, { tokens: 20_000, limit: 10_000 });

    expect(first).toMatchObject({ epochs: 1, rescued: 1 });
    expect(outcome.kind).toBe('retry');
    const retry = outcome.kind === 'retry' ? outcome.prepared : first;
    expect(retry).toMatchObject({ latched: 2, epochs: 2, rescued: 2 });
    expect(retry.body.length).toBeLessThan(first.body.length);
    expect(validateMessagesRequest(retry.body)).toEqual([]);
    // The head and the first stub (messages 0 and 1 of the latched body) come through unchanged.
    const firstStub = fromUtf8(latched.body).slice(0, endOfMessage(latched.body, 1));
    expect(fromUtf8(retry.body).slice(0, firstStub.length)).toBe(firstStub);
    expect((await readConversation(state, retry.key!))!.epochs.map((e) => e.trigger)).toEqual(['threshold', 'overflow']);
  });

  it('should rescue a conversation with shed epochs on overflow in a rescue mode engine, by its own mode', async () => {
    const shed = engineWith(SHED);
    await firstTurnAt90(shed);
    await shed.prepare(messages(BODY));
    const grown = conversation([...contents(), ...Array.from({ length: 10 }, (_, i) => (i < 4 ? filler(8000, 10 + i) : `small ${10 + i}`))]);
    const rescue = engineWith(engineSettingsOf({ ...CLASSIC, window: 10_000 }));
    const request = messages(grown);
    const first = await rescue.prepare(request);

    const outcome = await rescue.prepareAfterOverflow(request, first, { tokens: 20_000, limit: 10_000 });

    expect(outcome.kind).toBe('retry');
    const record = await readConversation(state, first.key!);
    expect(record!.epochs.map((e) => e.kind)).toEqual(['span', 'span']);
  });
});

describe('EpochEngine in rescue mode with --gate', () => {
  it('should latch only when the gate says the epoch pays back, and record the gate', async () => {
    const closed = engineWith(engineSettingsOf({ ...CLASSIC, window: 10_000, gate: true, horizon: 0 }));
    await firstTurnAt90(closed, BODY, 8_000);
    expect(await closed.prepare(messages(BODY))).toMatchObject({ reason: 'no_epoch', epochs: 0 });

    const open = engineWith(engineSettingsOf({ ...CLASSIC, window: 10_000, gate: true, horizon: 1000 }));
    await firstTurnAt90(open);
    const prepared = await open.prepare(messages(BODY));

    expect(prepared).toMatchObject({ latched: 1, rescued: 4 });
    const record = await readConversation(state, prepared.key!);
    expect(record!.epochs[0]).toMatchObject({ gate: { latch: true, horizonFrom: 'horizon', expectedRemainingTurns: 1000 } });
    expect(record!.epochs[0]!.kind).toBe('tool_results');
  });
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
