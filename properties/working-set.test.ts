/**
 * The working set (docs/shed.md and docs/rescue.md, "The working set"), over generated sessions
 * with a scripted model that reads files and brings stored texts back in bursts, run through the
 * core as the engine runs it: each request is the client's transcript with the epochs applied
 * (applyEpochs), measured at 4 bytes a token against the window, and the next request decides an
 * epoch on that reading (decideEpoch on the kind's take). For both kinds:
 *
 * (a) nothing brought back since the person's latest prompt is taken out by a later epoch;
 * (b) nothing is taken out twice by two epochs in a row (no prompt between them);
 * (c) the epochs are bounded by how often the conversation really filled: at most one more than
 *     the tokens the model added, over the minimum gain;
 * (d) the request after any epoch, with that epoch applied, fits the window whenever some plan of the
 *     frozen and eligible items could make it fit (the longest span the policy allows, or every
 *     eligible block stubbed, whatever the working set). The decision reads the last reading; the
 *     request it latches on grew since, and the core weighs that growth (core/epochs/request-tokens.ts).
 *
 * (a) and (b) are checked while the request carries less than the gate's ceiling (85% of the
 * window): from there on, the window itself may force the working set out.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  MESSAGES_API,
  applyEpochs,
  decideEpoch,
  DEFAULT_POLICY,
  DEFAULT_SHED_POLICY,
  freezeBlock,
  freezeSpan,
  GATE_CEILING,
  indexTranscript,
  NO_ITEMS,
  planElision,
  planShed,
  SPANS,
  spansLatch,
  TOOL_RESULTS,
  toolResultsLatch,
  type EpochAsk,
  type FrozenBlock,
  type FrozenSpan,
  type FullnessReading,
  type TranscriptIndex,
  readMessagesFacts,
} from '../src/core/index.js';
import { sha256 } from './support/sha256.js';

const WINDOW = 20_000;
/** The most one burst of restores brings back, in bytes: under the headroom the threshold leaves (30% of the window). */
const BURST_BYTES = 18_000;
/** A restore page, in characters (a span's text comes back page by page). */
const PAGE_CHARS = 8_000;
const BYTES_PER_TOKEN = 4;
const RESTORE = 'mcp__ctxshed__restore';
const SPANS_DIR = '/state/spans';
const ELIDED_DIR = '/state/elided';

type Step = { readonly kind: 'read'; readonly bytes: number } | { readonly kind: 'prompt' } | { readonly kind: 'burst'; readonly size: number };
type Message = { readonly role: string; readonly content: unknown };

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('read' as const), bytes: fc.integer({ min: 200, max: 5_000 }) }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'prompt' as const }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('burst' as const), size: fc.integer({ min: 1, max: 4 }) }) },
);

/** A stored text the model may bring back: its sha256 and its text. */
interface Stored {
  readonly sha256: string;
  readonly text: string;
}

/** What happened in one session. */
interface Run {
  readonly over: number;
  readonly epochs: number;
  readonly added: number;
  /** What broke (a) or (b), for the counterexample. */
  readonly violations: string[];
}

const encode = (messages: readonly Message[]): Uint8Array =>
  new TextEncoder().encode(JSON.stringify({ model: 'claude-sonnet-4-5', max_tokens: 100, messages }));

function mustIndex(body: Uint8Array): TranscriptIndex {
  const indexed = indexTranscript(body);
  if (indexed.kind === 'failed') throw new Error(indexed.reason);
  return indexed.index;
}

/** The restore calls whose answers lie in messages [first, last] (spans) or among `ordinals` (blocks). */
function restoresIn(messages: readonly Message[], inTake: (messageIndex: number, callId: string) => boolean): string[] {
  const ids: string[] = [];
  messages.forEach((m, i) => {
    if (m.role !== 'user' || !Array.isArray(m.content)) return;
    for (const block of m.content as Array<{ type: string; tool_use_id: string }>) {
      if (block.type === 'tool_result' && block.tool_use_id.startsWith('r') && inTake(i, block.tool_use_id)) ids.push(block.tool_use_id);
    }
  });
  return ids;
}

/** Runs one session in `kind`'s mode. */
function runSession(kind: 'span' | 'tool_results', steps: readonly Step[]): Run {
  const messages: Message[] = [{ role: 'user', content: 'Read the project, then check your work.' }];
  const stored: Stored[] = [];
  const spans: FrozenSpan[] = [];
  const blocks: FrozenBlock[] = [];
  const violations: string[] = [];
  /** The sha256 each restore call brought back, and what the latest epoch froze. */
  const restoredBy = new Map<string, string>();
  let latest: string[] = [];
  const sincePrompt = new Set<string>();
  let reading: FullnessReading | undefined;
  let over = 0;
  let added = 0;
  let epochs = 0;
  let call = 0;
  const spansPlanner = spansLatch({ policy: DEFAULT_SHED_POLICY, spansDir: SPANS_DIR, sha256 });
  const blocksPlanner = toolResultsLatch({ policy: DEFAULT_POLICY, elidedDir: ELIDED_DIR, sha256 });
  const turn = (uses: Array<{ id: string; name: string; input: unknown; answer: string }>): void => {
    messages.push({ role: 'assistant', content: uses.map(({ id, name, input }) => ({ type: 'tool_use', id, name, input })) });
    messages.push({ role: 'user', content: uses.map(({ id, answer }) => ({ type: 'tool_result', tool_use_id: id, content: answer })) });
  };
  for (const step of steps) {
    if (step.kind === 'prompt') {
      messages.push({ role: 'assistant', content: [{ type: 'text', text: 'done' }] });
      messages.push({ role: 'user', content: `next task ${call++}` });
      sincePrompt.clear();
    } else if (step.kind === 'read') {
      turn([{ id: `f${call++}`, name: 'Read', input: { file_path: `/src/f${call}.ts` }, answer: 'x'.repeat(step.bytes) }]);
      added += step.bytes / BYTES_PER_TOKEN;
    } else {
      const burst: Stored[] = [];
      let bytes = 0;
      // A long text comes back a page at a time, as the restore tool pages it.
      for (const s of stored.slice(-step.size).map((t) => ({ ...t, text: t.text.slice(0, PAGE_CHARS) }))) {
        if (bytes + s.text.length > BURST_BYTES) continue;
        burst.push(s);
        bytes += s.text.length;
      }
      if (burst.length === 0) continue;
      const uses = burst.map((s) => ({ id: `r${call++}`, name: RESTORE, input: { handle: s.sha256 }, answer: s.text }));
      turn(uses);
      for (const [i, u] of uses.entries()) {
        restoredBy.set(u.id, burst[i]!.sha256);
        sincePrompt.add(u.id);
        added += u.answer.length / BYTES_PER_TOKEN;
      }
    }
    messages.push({ role: 'assistant', content: [{ type: 'text', text: 'ok' }] });
    const body = encode(messages);
    messages.pop();
    const index = mustIndex(body);
    // What the request carries before this step's decision, and the least any plan of the frozen and eligible items leaves.
    const before = { spans: [...spans], blocks: [...blocks] };
    const carried = () => sentTokens(kind, body, before.spans, before.blocks);
    const least = () => leastTokens(kind, body, index, before.spans, before.blocks);
    let latchedHere = false;
    // The next request decides on the last reading (decide-epoch.ts), and carries what latched.
    if (reading !== undefined) {
      const ask: EpochAsk = {
        readFacts: readMessagesFacts,
        modelCalls: MESSAGES_API.modelCalls(index),
        body,
        index,
        reading,
        items: { ...NO_ITEMS, tool_results: blocks, span: spans },
        latest,
      };
      const take = () => (kind === 'span' ? spansPlanner.take(ask) : blocksPlanner.take(ask));
      const decision = decideEpoch({ reading, thresholds: { threshold: 0.7 }, epochCount: epochs, take });
      latchedHere = decision.kind === 'latch';
      if (decision.kind === 'latch') {
        epochs++;
        const taken =
          decision.span !== undefined
            ? restoresIn(messages, (i) => i >= decision.span!.first && i <= decision.span!.last)
            : restoresIn(messages, (_, id) => decision.added.some((b) => index.toolResults[b.ordinal]?.toolUseId === id));
        // From the gate's ceiling on, the window forces the working set out (core/shed/plan-to-fit.ts): (a) and (b) hold
        // below it. The core weighs what the request carries, the last reading grown since (core/epochs/request-tokens.ts).
        const forced = carried() >= GATE_CEILING * WINDOW;
        for (const id of forced ? [] : taken) {
          if (sincePrompt.has(id)) violations.push(`(a) epoch ${epochs} took ${id}, brought back since the latest prompt`);
          if (latest.includes(restoredBy.get(id) ?? '')) violations.push(`(b) epoch ${epochs} took ${id}, which brought back what epoch ${epochs - 1} took`);
        }
        latest = [];
        if (decision.span !== undefined) {
          spans.push(freezeSpan(decision.span));
          latest.push(decision.span.sha256);
          stored.push({ sha256: decision.span.sha256, text: new TextDecoder().decode(decision.span.text) });
        }
        for (const b of decision.added) {
          const planned = b as unknown as FrozenBlock & { text: Uint8Array };
          blocks.push(freezeBlock(planned));
          latest.push(planned.sha256);
          stored.push({ sha256: planned.sha256, text: new TextDecoder().decode(planned.text) });
        }
      }
    }
    const tokens = sentTokens(kind, body, spans, blocks);
    // (d): the request after an epoch, with that epoch applied, fits the window whenever some plan could make it fit.
    if (latchedHere && tokens > WINDOW && least() <= WINDOW) over++;
    if (process.env['WS_TRACE'] && !latchedHere && tokens > WINDOW) console.log('unlatched over', kind, tokens, least());
    reading = { contextTokens: tokens, window: WINDOW, epochsApplied: epochs, requestBytes: tokens * BYTES_PER_TOKEN };
  }
  return { over, epochs, added, violations };
}

/** The tokens of the request as sent: the body with the frozen items applied, at 4 bytes a token. */
function sentTokens(kind: 'span' | 'tool_results', body: Uint8Array, spans: readonly FrozenSpan[], blocks: readonly FrozenBlock[]): number {
  const sent =
    kind === 'span'
      ? applyEpochs(SPANS, body, spans, { sha256, spansDir: SPANS_DIR })
      : applyEpochs(TOOL_RESULTS, body, blocks, { sha256, elidedDir: ELIDED_DIR });
  return Math.ceil(sent.body.length / BYTES_PER_TOKEN);
}

/**
 * The least a plan of the frozen and eligible items can leave the request at, whatever the working
 * set: the longest span the policy allows (the recent window at its floor, nothing kept for the
 * working set) after the frozen ones, or every eligible block stubbed.
 */
function leastTokens(
  kind: 'span' | 'tool_results',
  body: Uint8Array,
  index: TranscriptIndex,
  spans: readonly FrozenSpan[],
  blocks: readonly FrozenBlock[],
): number {
  if (kind === 'span') {
    const plan = planShed(body, spans, { readFacts: readMessagesFacts, sha256, recentTokens: DEFAULT_SHED_POLICY.recentFloorTokens, index, keepFrom: -1 });
    return sentTokens(kind, body, plan.kind === 'planned' ? [...spans, freezeSpan(plan.span)] : spans, blocks);
  }
  const frozen = new Set(blocks.map((b) => b.ordinal));
  const eligible = planElision(body, index, DEFAULT_POLICY, sha256, { elidedDir: ELIDED_DIR }).filter((b) => !frozen.has(b.ordinal));
  const all = [...blocks, ...eligible.map(freezeBlock)].sort((x, y) => x.ordinal - y.ordinal);
  return sentTokens(kind, body, spans, all);
}

// FC_RUNS raises the count for a longer local run (test/support/fast-check-setup.ts).
const RUNS = Number(process.env['FC_RUNS'] ?? 15);
const stepsArb = fc.array(stepArb, { minLength: 40, maxLength: 100 });

/**
 * A counterexample fast-check found (FC_SEED=-1945701878, shed kind), kept as a fixed example: a
 * gate hold at 84% of the window let a burst carry the request past it, and the epoch latched on
 * that reading planned its span to fit the reading, not the request, leaving it at 22,119 of 20,000
 * tokens. `rN` reads a file of N bytes, `bN` brings back the N latest stored texts, `p` is a prompt.
 */
const PAST_THE_WINDOW =
  'r1301 b4 r4546 b4 r3777 r3916 r3309 b4 b3 r4789 r655 r1528 r1080 r4686 b4 b4 r3254 r1567 r2636 r4013 ' +
  'r2624 r3031 b4 p p r3508 r3374 r4897 p r2073 r1337 b3 r1645 r2607 r3533 b4 b3 b1 r2095 p b3 r3672 b2 ' +
  'p r913 r2623 b4 r2172 b2 b2 b2 b4 b4 r841 b1 p r1472 b2 p b1 r3059 r4183 r520 r819';

function stepsOf(script: string): Step[] {
  return script.split(' ').map((word): Step => {
    const n = Number(word.slice(1));
    return word[0] === 'r' ? { kind: 'read', bytes: n } : word[0] === 'b' ? { kind: 'burst', size: n } : { kind: 'prompt' };
  });
}

describe('the working set, over sessions that bring stored texts back in bursts', () => {
  for (const kind of ['span', 'tool_results'] as const) {
    it(`should keep what was brought back, take nothing out twice, latch few epochs and stay in the window (${kind})`, () => {
      let latched = 0;
      fc.assert(
        fc.property(stepsArb, (steps) => {
          const run = runSession(kind, steps);
          latched += run.epochs;
          expect(run.violations).toEqual([]);
          // (c): every epoch frees at least the minimum gain (a tenth of the window), so there are at most this many.
          expect(run.epochs).toBeLessThanOrEqual(1 + Math.floor(run.added / (0.1 * WINDOW)));
          expect(run.over).toBe(0);
        }),
        { numRuns: RUNS, endOnFailure: true },
      );
      expect(latched).toBeGreaterThan(0);
    });
  }

  it('should bring the request an epoch latched on under the window when the last reading was under it and the request is not (fixed example)', () => {
    const run = runSession('span', stepsOf(PAST_THE_WINDOW));
    expect(run.epochs).toBeGreaterThan(0);
    expect(run.over).toBe(0);
    expect(run.violations).toEqual([]);
  });
});
