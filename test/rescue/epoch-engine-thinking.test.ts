/** The epoch engine on a model that runs the thinking prefix check (docs/rescue.md, "Preserved thinking"), both modes. */
import fs from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { listThinking } from '../../src/core/thinking/list-thinking.js';
import type { Usage } from '../../src/core/usage.js';
import { engineSettingsOf, EpochEngine, type EngineRequest, type EngineSettings, type Prepared } from '../../src/rescue/index.js';
import { thinkingPath, type StateDir } from '../../src/state/layout.js';
import { openStateDir } from '../../src/state/open-state-dir.js';
import { inflateFromState } from '../../src/state/inflate-from-state.js';
import { readConversation } from '../../src/state/read-conversation.js';
import { verifyState } from '../../src/state/verify-state.js';
import { fromUtf8, mustIndex, sha256 } from '../core/bodies.js';
import { thinkingLoop } from '../core/thinking/thinking-bodies.js';
import { validateMessagesRequest } from '../support/messages-validator.js';
import { tempStateDir } from '../support/test-proxy.js';
import { spanOf } from '../../src/core/epoch-items.js';
import { frozenThinkingOf } from '../../src/core/epoch-items.js';

const LATCH_TIME = new Date('2026-02-03T04:05:06.000Z');
const RESCUE: EngineSettings = engineSettingsOf({ window: 10_000 });
const SHED: EngineSettings = engineSettingsOf({ window: 10_000, mode: 'shed' });
/** Ten turns; the 4 oldest tool results are big. */
const big = (t: number): number => (t < 4 ? 8000 : 40);
const body = (turns: number, model?: string): Uint8Array => thinkingLoop(turns, model, big);

const messages = (b: Uint8Array): EngineRequest => ({ method: 'POST', target: '/v1/messages?beta=true', headers: {}, body: b });
const usage = (contextTokens: number): Usage => ({ inputTokens: 10, cacheCreationInputTokens: 0, cacheReadInputTokens: contextTokens - 10, outputTokens: 5 });

let state: StateDir;
beforeEach(async () => {
  state = await openStateDir(await tempStateDir('ctxshed-engine-thinking-'));
});
afterEach(async () => {
  // Engines made in a test write previews off the request's path: retry while one lands.
  await fs.rm(state.root, { recursive: true, force: true, maxRetries: 5 });
});

async function latchOn(settings: EngineSettings, model?: string): Promise<{ engine: EpochEngine; latched: Prepared }> {
  const engine = new EpochEngine(state, settings, { now: () => LATCH_TIME });
  const first = await engine.prepare(messages(body(10, model)));
  engine.observe(first, { status: 200, usage: usage(9_000) });
  const latched = await engine.prepare(messages(body(10, model)));
  return { engine, latched };
}

/** The thinking ordinals left in a body sent, by their signature seeds. */
function thinkingKept(sent: Uint8Array): string[] {
  const index = mustIndex(sent);
  return listThinking(index).map((t) => fromUtf8(sent.subarray(t.block.start, t.block.end)).slice(0, 48));
}

describe.each([
  ['rescue', RESCUE],
  ['shed', SHED],
] as const)('EpochEngine on claude-opus-5-5, %s mode', (mode, settings) => {
  it('should remove the thinking blocks after the change, durably, and from every later request with the same bytes', async () => {
    // Arrange and act: the latch.
    const { engine, latched } = await latchOn(settings);

    // Assert: the blocks after the first change are gone and on disk, the request is valid.
    expect(latched).toMatchObject({ outcome: 'rewritten', latched: 1 });
    const thinkingRemoved = latched.outcome === 'rewritten' ? latched.thinkingRemoved : undefined;
    expect(thinkingRemoved).toBeGreaterThan(0);
    expect(validateMessagesRequest(latched.body)).toEqual([]);
    const record = await readConversation(state, latched.key!);
    const frozen = frozenThinkingOf(record!.epochs[0]!);
    expect(frozen.length).toBe(thinkingRemoved);
    const first = frozen[0]!;
    // Rescue stubs from tool result 0 (message 2) on: thinking 0 (message 1) stays. Shed's span
    // holds messages up to some point; the kept thinking is the one before the change, or none.
    expect(first.messageIndex).toBeGreaterThan(1);
    for (const t of frozen) {
      const bytes = await fs.readFile(thinkingPath(state, t.sha256));
      expect(sha256(bytes)).toBe(t.sha256);
      expect((await fs.stat(thinkingPath(state, t.sha256))).mode & 0o777).toBe(0o600);
    }
    expect(thinkingKept(latched.body).length).toBe(
      listThinking(mustIndex(body(10))).length - frozen.length - (mode === 'shed' ? spanThinking(spanOf(record!.epochs[0]!)!) : 0),
    );

    // Lossless: inflate gives the client's body back, byte for byte, thinking blocks included.
    const inflated = await inflateFromState(state, latched.body);
    expect(fromUtf8(inflated.body)).toBe(fromUtf8(body(10)));
    expect(inflated.thinking).toBe(frozen.length);
    expect((await verifyState(state.root)).problems).toEqual([]);
    // A thinking file that no longer matches its name is a problem verify names.
    await fs.writeFile(thinkingPath(state, first.sha256), 'changed');
    expect((await verifyState(state.root)).problems.join('\n')).toMatch(/thinking\/[0-9a-f]{64}\.json: content hashes to/);
    await fs.writeFile(
      thinkingPath(state, first.sha256),
      await fs.readFile(thinkingPath(state, frozen[1]!.sha256)).then(() => inflatedBlock(inflated.body, first.ordinal)),
    );

    // A later turn: its new thinking stays, the frozen ones stay out, the prefix is the same bytes.
    engine.observe(latched, { status: 200, usage: usage(5_000) });
    const later = await engine.prepare(messages(body(11)));
    expect(later).toMatchObject({ outcome: 'rewritten', thinkingRemoved: frozen.length });
    const before = fromUtf8(latched.body);
    const after = fromUtf8(later.body);
    const cut = before.lastIndexOf('{"role":"user"');
    expect(after.slice(0, cut)).toBe(before.slice(0, cut));
    expect(after).toContain('Sig10');

    // The same transcript again (another process, after a restart): the same bytes.
    const again = await new EpochEngine(state, settings, { now: () => LATCH_TIME }).prepare(messages(body(11)));
    expect(fromUtf8(again.body)).toBe(after);
  });

  it('should keep every thinking block on a model without the prefix check', async () => {
    const { latched } = await latchOn(settings, 'claude-sonnet-4-5');

    expect(latched).toMatchObject({ outcome: 'rewritten', latched: 1 });
    expect(latched).not.toHaveProperty('thinkingRemoved');
    const record = await readConversation(state, latched.key!);
    expect(frozenThinkingOf(record!.epochs[0]!)).toEqual([]);
  });
});

// Turns t hold thinking at message 2t+1: a span first..last holds those of its messages.
function spanThinking(span: { readonly first: number; readonly last: number }): number {
  let n = 0;
  for (let m = span.first; m <= span.last; m++) if (m % 2 === 1) n++;
  return n;
}

/** The bytes of the thinking block at an ordinal, from a body that has them all. */
function inflatedBlock(b: Uint8Array, ordinal: number): Uint8Array {
  const t = listThinking(mustIndex(b))[ordinal]!;
  return b.slice(t.block.start, t.block.end);
}
