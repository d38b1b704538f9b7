import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES_API } from '../../../src/core/dialects/messages.js';
import { frozenShas, shasFrozenBy, workingSetOfAsk, workingSetOf, workingSetOrdinals } from '../../../src/core/epochs/working-set.js';
import { registerEpochKind } from '../../../src/core/epochs/kind-info.js';
import type { Epoch, FrozenBlock } from '../../../src/core/epoch-types.js';
import { decideEpoch } from '../../../src/core/decide/decide-epoch.js';
import { DEFAULT_POLICY } from '../../../src/core/plan-elision.js';
import { DEFAULT_SHED_POLICY, type FrozenSpan } from '../../../src/core/shed/shed-types.js';
import { NO_ITEMS } from '../../../src/core/epochs/frozen-items.js';
import { planShed } from '../../../src/core/shed/plan-span.js';
import { planShedToFit } from '../../../src/core/shed/plan-to-fit.js';
import { pressedReading } from '../../../src/core/epochs/request-tokens.js';
import { spansLatch } from '../../../src/core/epochs/spans/spans-latch.js';
import { toolResultsLatch } from '../../../src/core/epochs/tool-results/tool-results-latch.js';
import type { EpochAsk } from '../../../src/core/epochs/epoch-planner.js';
import { readMessagesFacts } from '../../../src/core/shed/message-facts.js';
import { filler, mustIndex, sha256, utf8 } from '../bodies.js';

const STORED = ['a', 'b', 'c', 'd'].map((c) => c.repeat(64));
const RESTORE = 'mcp__ctxshed__restore';

type Step = { readonly prompt: string } | { readonly read: string; readonly bytes: number } | { readonly restore: string; readonly bytes: number };

/**
 * A Messages body: a first prompt, then each step (a person's prompt, a Read of a project file, or
 * a restore of a stored sha256 with its answer of `bytes`), then an assistant's text. Call ids are
 * `t<step>`.
 */
function body(steps: readonly Step[]): Uint8Array {
  const messages: unknown[] = [{ role: 'user', content: 'Read the project.' }];
  steps.forEach((step, i) => {
    if ('prompt' in step) {
      messages.push({ role: 'assistant', content: [{ type: 'text', text: `done ${i}` }] });
      messages.push({ role: 'user', content: step.prompt });
      return;
    }
    const input = 'read' in step ? { file_path: step.read } : { handle: step.restore };
    messages.push({ role: 'assistant', content: [{ type: 'tool_use', id: `t${i}`, name: 'read' in step ? 'Read' : RESTORE, input }] });
    messages.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: `t${i}`, content: filler(step.bytes, i) }] });
  });
  messages.push({ role: 'assistant', content: [{ type: 'text', text: 'checking' }] });
  return utf8(JSON.stringify({ model: 'claude-sonnet-4-5', max_tokens: 100, messages }));
}

const reads = (n: number, bytes = 8_000): Step[] => Array.from({ length: n }, (_, i) => ({ read: `/p/${i}.ts`, bytes }));

describe('workingSetOf', () => {
  it("should hold the answers of the restores since the person's latest prompt, and not those before it", () => {
    const b = body([...reads(2), { restore: STORED[0]!, bytes: 3000 }, { prompt: 'now the tests' }, { restore: STORED[1]!, bytes: 3000 }, ...reads(2)]);

    const set = workingSetOf(b, mustIndex(b), new Set(STORED));

    expect([...set.calls]).toEqual(['t4']);
    // Message 0 the prompt, then two messages a step: step 4's answer is message 10.
    expect(set.firstMessage).toBe(10);
    expect(set.promptAt).toBe(8);
  });

  it('should keep for the rest of the conversation the newest answer of a text brought back twice, and only that one', () => {
    const twice = STORED[2]!;
    const b = body([{ restore: twice, bytes: 2000 }, { prompt: 'again' }, { restore: twice, bytes: 2000 }, { prompt: 'and on' }, ...reads(3)]);

    const set = workingSetOf(b, mustIndex(b), new Set(STORED));

    expect([...set.calls]).toEqual(['t2']);
  });

  it('should hold nothing when no call brought stored text back', () => {
    const b = body(reads(4));

    expect(workingSetOf(b, mustIndex(b), new Set(STORED)).calls.size).toBe(0);
  });
});

describe('a span planned around the working set', () => {
  const steps: Step[] = [...reads(12), { prompt: 'check your work' }, ...STORED.map((restore) => ({ restore, bytes: 8_000 })), ...reads(1, 200)];
  const b = body(steps);
  const index = mustIndex(b);
  const set = workingSetOf(b, index, new Set(STORED));

  it('should end before the first restore answer since the prompt, where the recent window alone would take some', () => {
    const alone = planShed(b, [], { readFacts: readMessagesFacts, sha256, recentTokens: 3000, index });
    const around = planShed(b, [], { readFacts: readMessagesFacts, sha256, recentTokens: 3000, index, keepFrom: set.firstMessage });

    expect(alone.kind === 'planned' && alone.span.last).toBeGreaterThanOrEqual(set.firstMessage);
    expect(around).toMatchObject({ kind: 'planned', span: { cutByWorkingSet: true } });
    expect(around.kind === 'planned' && around.span.last).toBeLessThan(set.firstMessage);
  });

  it('should take the working set only when nothing around it brings the request under the limit (the window forces it out)', () => {
    const options = { readFacts: readMessagesFacts, sha256, recentTokens: 3000, index, keepFrom: set.firstMessage };
    const target = (limit: number) => ({ contextTokens: b.length / 4, limit, tokensPerByte: 0.25, floorTokens: 3000, spansDir: '/s' });

    const roomy = planShedToFit(b, [], options, target(b.length / 4));
    // The reads free about 24,000 tokens; with three of the four restores, about 30,000.
    const tight = planShedToFit(b, [], options, target(Math.round(b.length / 4 - 27_000)));

    expect(roomy).toMatchObject({ kind: 'planned', span: { cutByWorkingSet: true } });
    expect(roomy).not.toHaveProperty('forcedWorkingSet');
    expect(tight).toMatchObject({ kind: 'planned', forcedWorkingSet: true });
    expect(tight.kind === 'planned' && tight.span.last).toBeGreaterThanOrEqual(set.firstMessage);
  });

  it('should take the span with the working set when neither fits but it comes nearer the limit', () => {
    const options = { readFacts: readMessagesFacts, sha256, recentTokens: 3000, index, keepFrom: set.firstMessage };
    const hopeless = planShedToFit(b, [], options, { contextTokens: b.length / 4, limit: 1_000, tokensPerByte: 0.25, floorTokens: 3000, spansDir: '/s' });

    expect(hopeless).toMatchObject({ kind: 'planned', forcedWorkingSet: true, short: 'kept_over_window' });
    expect(hopeless.kind === 'planned' && hopeless.span.last).toBeGreaterThanOrEqual(set.firstMessage);
  });
});

describe('a request that grew past the window since the last reading', () => {
  // The last reading measured 80% of the window; since then the model brought back 240 KB, and
  // the request now carries 105% of it: only taking the working set brings it under (the six
  // newest tool results stay in rescue mode).
  const b = body([...reads(3, 2_000), { prompt: 'check' }, ...STORED.map((restore) => ({ restore, bytes: 60_000 })), ...reads(6, 100)]);
  const window = Math.round(b.length / 4 / 1.05);
  const reading = { contextTokens: Math.round(0.8 * window), window, epochsApplied: 0, requestBytes: Math.round(0.8 * window) * 4 };
  const ask: EpochAsk = {
    readFacts: readMessagesFacts,
    modelCalls: MESSAGES_API.modelCalls(mustIndex(b)),
    body: b,
    index: mustIndex(b),
    reading,
    items: NO_ITEMS,
  };
  const decide = (take: () => ReturnType<ReturnType<typeof toolResultsLatch>['take']>) =>
    decideEpoch({ reading, thresholds: { threshold: 0.7 }, epochCount: 0, take });

  it('should weigh the request as it now is: the last reading grown by the bytes added since, at its tokens per byte', () => {
    expect(pressedReading(reading, b.length).contextTokens).toBe(Math.round(reading.contextTokens + (b.length - reading.requestBytes) / 4));
    expect(pressedReading(reading, reading.requestBytes - 10)).toBe(reading);
  });

  it('should never shed what was brought back since the latest prompt: the epoch holds as over the window (issue 39)', () => {
    const planner = spansLatch({ policy: DEFAULT_SHED_POLICY, spansDir: '/state/spans', sha256 });

    const take = planner.take(ask);

    expect(take).toMatchObject({ kind: 'none', reason: 'working_set_exceeds_window' });
    expect(decide(() => take)).toMatchObject({ kind: 'hold', reason: 'working_set_exceeds_window' });
  });

  it('should never take what was brought back since the latest prompt out of a tool-result epoch (issue 39)', () => {
    const planner = toolResultsLatch({ policy: DEFAULT_POLICY, elidedDir: '/state/elided', sha256 });
    const kept = workingSetOrdinals(ask.index, workingSetOf(b, ask.index, new Set(STORED)));

    const take = planner.take(ask);

    expect(kept.size).toBe(4);
    expect(take).toMatchObject({ kind: 'blocks', keptByWorkingSet: 4, nearWindow: true });
    expect(take.kind === 'blocks' && take.plan.filter((block) => kept.has(block.ordinal)).length).toBe(0);
    expect(decide(() => take)).toMatchObject({ kind: 'hold', reason: 'working_set_exceeds_window' });
  });

  // The same bring-backs before the person's latest prompt, kept only because they brought back
  // what the latest epoch took: near the window, the window forces them out.
  const before = body([...reads(3, 2_000), ...STORED.map((restore) => ({ restore, bytes: 60_000 })), { prompt: 'check' }, ...reads(6, 100)]);
  // The stored texts as a latest epoch froze them (ordinals past the body's: only their sha256s count here).
  const stored: FrozenBlock[] = STORED.map((sha, i) => ({ ordinal: 1000 + i, toolUseId: `x${i}`, bytes: 10, sha256: sha, jsonBytes: 12, jsonSha256: sha }));
  const beforeAsk: EpochAsk = {
    ...ask,
    body: before,
    index: mustIndex(before),
    items: { ...NO_ITEMS, tool_results: stored },
    latest: STORED,
    modelCalls: MESSAGES_API.modelCalls(mustIndex(before)),
  };

  it('should shed a span that takes what the window may force out and brings the request under it, and latch it past the gate', () => {
    const planner = spansLatch({ policy: DEFAULT_SHED_POLICY, spansDir: '/state/spans', sha256 });

    const take = planner.take(beforeAsk);
    const decision = decide(() => take);

    expect(take).toMatchObject({ kind: 'span', fit: { limit: window } });
    expect(take.kind === 'span' && take.fit!.estimatedTokens).toBeLessThanOrEqual(window);
    expect(take).toMatchObject({ forcedWorkingSet: true });
    expect(decision).toMatchObject({ kind: 'latch' });
    expect(decision.kind === 'latch' && decision.fullness).toBeGreaterThan(1);
  });

  it('should take what the window may force out of a tool-result epoch', () => {
    const planner = toolResultsLatch({ policy: DEFAULT_POLICY, elidedDir: '/state/elided', sha256 });
    const set = workingSetOf(before, beforeAsk.index, new Set(STORED), new Set(STORED));

    const take = planner.take(beforeAsk);

    expect(set.calls.size).toBe(4);
    expect(set.sincePrompt.calls.size).toBe(0);
    expect(take).not.toHaveProperty('keptByWorkingSet');
    expect(take.kind === 'blocks' && take.plan.length).toBeGreaterThan(0);
    expect(decide(() => take)).toMatchObject({ kind: 'latch' });
  });
});

describe('the epoch kinds and the working set', () => {
  const reading = { contextTokens: 150_000, window: 200_000, epochsApplied: 0, requestBytes: 600_000 };
  const decide = (take: () => ReturnType<ReturnType<typeof toolResultsLatch>['take']>) =>
    decideEpoch({ reading, thresholds: { threshold: 0.7 }, epochCount: 0, take });

  it('should leave the working set out of a tool-result epoch, and hold a thrash when the rest is not worth it', () => {
    const b = body([...reads(3, 2_000), { prompt: 'check' }, ...STORED.map((restore) => ({ restore, bytes: 20_000 })), ...reads(6, 100)]);
    const index = mustIndex(b);
    const frozen: FrozenBlock[] = STORED.map((sha, ordinal) => ({ ordinal, toolUseId: `x${ordinal}`, bytes: 10, sha256: sha, jsonBytes: 12, jsonSha256: sha }));
    const ask: EpochAsk = {
      readFacts: readMessagesFacts,
      modelCalls: MESSAGES_API.modelCalls(index),
      body: b,
      index,
      reading,
      items: { ...NO_ITEMS, tool_results: frozen },
    };
    const planner = toolResultsLatch({ policy: DEFAULT_POLICY, elidedDir: '/state/elided', sha256 });

    const take = planner.take(ask);
    const kept = workingSetOrdinals(index, workingSetOf(b, index, new Set(STORED)));

    expect(take).toMatchObject({ kind: 'blocks', keptByWorkingSet: 4 });
    expect(take.kind === 'blocks' && take.plan.some((block) => kept.has(block.ordinal))).toBe(false);
    expect(decide(() => take)).toMatchObject({ kind: 'hold', reason: 'working_set_thrash' });
  });

  it('should hold a span epoch as a thrash when only the working set would be worth shedding', () => {
    const b = body([...reads(2, 500), { prompt: 'check' }, ...STORED.map((restore) => ({ restore, bytes: 60_000 })), ...reads(1, 100)]);
    const spans: FrozenSpan[] = [];
    const ask: EpochAsk = {
      readFacts: readMessagesFacts,
      modelCalls: MESSAGES_API.modelCalls(mustIndex(b)),
      body: b,
      index: mustIndex(b),
      reading: { ...reading, requestBytes: b.length },
      items: { ...NO_ITEMS, span: spans },
    };
    const planner = spansLatch({ policy: DEFAULT_SHED_POLICY, spansDir: '/state/spans', sha256 });

    const decision = decide(() => planner.take(ask));

    expect(decision).toMatchObject({ kind: 'hold', reason: 'working_set_thrash' });
  });
});

describe('the working set over every kind, a registered one too', () => {
  // A kind with a tag of its own: its items name one original each, kept in its own folder.
  const TAG = 'probe_text';
  let unregister: () => void = () => undefined;
  beforeAll(() => {
    unregister = registerEpochKind({
      tag: TAG,
      mode: undefined,
      counts: 'items',
      byCommand: false,
      originals: TAG,
      filesOf: (item: { sha256: string }) => [{ sha256: item.sha256, ext: 'json' }],
    });
  });
  afterAll(() => unregister());
  const [block, span, registered] = STORED as [string, string, string];
  const raw = 'e'.repeat(64);
  const epoch: Epoch = {
    n: 1,
    latchedAt: '2026-12-03T00:00:00.000Z',
    reason: { fullness: 0.75, threshold: 0.7, window: 200_000, contextTokens: 150_000 },
    policy: { name: TAG, version: 1, keepRecent: 0, minBytes: 0 },
    kind: TAG,
    items: { [TAG]: [{ sha256: registered }] },
  };

  it("should name every kind's originals among the frozen sha256s, and the latest epoch's own", () => {
    const frozen: FrozenBlock = { ordinal: 0, toolUseId: 't0', bytes: 10, sha256: block, jsonBytes: 12, jsonSha256: block, rawSha256: raw };
    const items = { ...NO_ITEMS, tool_results: [frozen], span: [{ sha256: span } as FrozenSpan], [TAG]: [{ sha256: registered }] };

    expect([...frozenShas(items)].sort()).toEqual([block, span, registered, raw].sort());
    expect(shasFrozenBy(epoch)).toEqual([registered]);
  });

  it("should keep the answer of a restore of what a registered kind's latest epoch froze, once the person has spoken since", () => {
    // The restore came before the person's latest prompt: only its being the latest epoch's keeps it.
    const b = body([...reads(2), { restore: registered, bytes: 3000 }, { prompt: 'go on' }, ...reads(2)]);
    const index = mustIndex(b);
    const reading = { contextTokens: 150_000, window: 200_000, epochsApplied: 0, requestBytes: 600_000 };
    const ask = (latest: readonly string[]): EpochAsk => ({
      readFacts: readMessagesFacts,
      modelCalls: MESSAGES_API.modelCalls(index),
      body: b,
      index,
      reading,
      items: { ...NO_ITEMS, [TAG]: [{ sha256: registered }] },
      latest,
    });

    expect([...workingSetOfAsk(ask(shasFrozenBy(epoch))).calls]).toEqual(['t2']);
    expect(workingSetOfAsk(ask([])).calls.size).toBe(0);
  });
});
