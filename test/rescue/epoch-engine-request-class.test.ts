/**
 * Claude Code's request classes in the engine (core/request-class.ts): side calls never make a
 * conversation of their own, never latch and give no reading; a compaction request goes through
 * its conversation's epochs, latches nothing on the threshold and is still rescued on an overflow.
 */
import fs from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Usage } from '../../src/core/usage.js';
import { latchedOf, engineSettingsOf, EpochEngine, type EngineRequest, type EngineSettings } from '../../src/rescue/index.js';
import type { StateDir } from '../../src/state/layout.js';
import { openStateDir } from '../../src/state/open-state-dir.js';
import { conversation, filler, replaceNth } from '../core/bodies.js';
import { tempStateDir } from '../support/test-proxy.js';
import { CLASSIC } from '../support/classic-settings.js';

const SETTINGS: EngineSettings = engineSettingsOf({ ...CLASSIC, window: 10_000 });
const BODY = conversation(Array.from({ length: 10 }, (_, i) => filler(4000, i)));
/** What Claude Code sends to compact: the whole transcript, then its instructions as the last user message. */
const COMPACT_BODY = replaceNth(BODY, 'Go on.', 'Your task is to create a detailed summary of the conversation so far.');

function messages(body: Uint8Array, cls?: string): EngineRequest {
  const headers: Record<string, string> = cls === undefined ? {} : { 'x-claude-code-request-class': cls };
  if (cls === 'compaction') headers['x-claude-code-compaction'] = '1';
  return { method: 'POST', target: '/v1/messages?beta=true', headers, body };
}

function usage(contextTokens: number): Usage {
  return { inputTokens: 10, cacheCreationInputTokens: 0, cacheReadInputTokens: contextTokens - 10, outputTokens: 5 };
}

let state: StateDir;
let engine: EpochEngine;

beforeEach(async () => {
  state = await openStateDir(await tempStateDir('ctxshed-class-'));
  engine = new EpochEngine(state, SETTINGS);
});

afterEach(async () => {
  // A conversation's first call writes its preview off the request's path: let it land first.
  await engine.settle();
  await fs.rm(state.root, { recursive: true, force: true, maxRetries: 5 });
});

/** A main turn read at 90% of the window, then the next main request, which latches. */
async function latchedConversation(): Promise<void> {
  const first = await engine.prepare(messages(BODY, 'main'));
  engine.observe(first, { status: 200, usage: usage(9_000) });
  const latched = await engine.prepare(messages(BODY, 'main'));
  expect(latched).toMatchObject({ latched: 1, rescued: 4 });
}

describe('side calls', () => {
  it.each(['auxiliary', 'side_reply'])('should pass a %s request of a new conversation through, making no conversation of it', async (cls) => {
    const prepared = await engine.prepare(messages(BODY, cls));

    expect(prepared).toMatchObject({ reason: 'side_call', requestClass: cls });
    expect(prepared.body).toBe(BODY);
    expect([...engine.conversations()]).toEqual([]);
    expect(engine.canRescueOverflow(prepared)).toBe(false);
  });

  it('should send a side call of a conversation with epochs through them, never latching and never reading its usage', async () => {
    await latchedConversation();
    const main = [...engine.conversations()][0]!;
    const readingBefore = main.reading;

    const side = await engine.prepare(messages(BODY, 'side_reply'));
    engine.observe(side, { status: 200, usage: usage(9_999) });

    expect(side).toMatchObject({ rescued: 4, epochs: 1, requestClass: 'side_reply' });
    expect(latchedOf(side)).toBeUndefined();
    expect(side.outcome).toBe('rewritten');
    expect(main.reading).toBe(readingBefore);
  });

  it('should let a main request over the threshold latch where a side call of the same conversation does not', async () => {
    const first = await engine.prepare(messages(BODY, 'main'));
    engine.observe(first, { status: 200, usage: usage(9_000) });

    const side = await engine.prepare(messages(BODY, 'auxiliary'));
    const main = await engine.prepare(messages(BODY, 'main'));

    expect(side).toMatchObject({ reason: 'side_call' });
    expect(main).toMatchObject({ latched: 1 });
  });
});

describe('a compaction request', () => {
  it("should go through its conversation's epochs: the same key, the stubs, smaller than the client's bytes", async () => {
    await latchedConversation();
    const main = [...engine.conversations()][0]!;

    const compaction = await engine.prepare(messages(COMPACT_BODY, 'compaction'));

    expect(compaction).toMatchObject({ key: main.key, rescued: 4, epochs: 1, requestClass: 'compaction' });
    expect(compaction.outcome).toBe('rewritten');
    expect(compaction.body.length).toBeLessThan(COMPACT_BODY.length - 10_000);
  });

  it('should latch nothing on the threshold, and still be rescued when the API refuses it as too long', async () => {
    const first = await engine.prepare(messages(BODY, 'main'));
    engine.observe(first, { status: 200, usage: usage(9_000) });
    const request = messages(COMPACT_BODY, 'compaction');

    const compaction = await engine.prepare(request);
    const outcome = await engine.prepareAfterOverflow(request, compaction, { tokens: 12_000, limit: 10_000 });

    expect(compaction).toMatchObject({ reason: 'no_epoch', epochs: 0 });
    expect(engine.canRescueOverflow(compaction)).toBe(true);
    expect(outcome.kind).toBe('retry');
    expect(outcome.kind === 'retry' ? outcome.prepared : undefined).toMatchObject({ latched: 1, rescued: 4 });
  });

  it('should read the compaction header alone as a compaction request', async () => {
    const prepared = await engine.prepare({ ...messages(BODY), headers: { 'x-claude-code-compaction': 'auto' } });

    expect(prepared.requestClass).toBe('compaction');
  });
});
