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
 * (d) the request an epoch latched on fits the window with it, when the reading it latched on was
 *     within the window (every step adds less than the headroom the threshold leaves, so some plan
 *     could). A reading already over the window is a request the API refused; the engine then
 *     latches on the refusal (overflow-latch.ts), which this model of the core does not run, so such
 *     a latch is not held to (d).
 *
 * (a) and (b) are checked below the gate's ceiling (85% of the window): from there on, the window
 * itself may force the working set out.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  applyEpochs,
  decideEpoch,
  DEFAULT_POLICY,
  DEFAULT_SHED_POLICY,
  freezeBlock,
  freezeSpan,
  GATE_CEILING,
  indexTranscript,
  SPANS,
  spansLatch,
  TOOL_RESULTS,
  toolResultsLatch,
  type EpochAsk,
  type FrozenBlock,
  type FrozenSpan,
  type FullnessReading,
  type TranscriptIndex,
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
    let latchedHere = false;
    // The next request decides on the last reading (decide-epoch.ts), and carries what latched.
    if (reading !== undefined) {
      const ask: EpochAsk = { body, index, reading, frozen: blocks, spans, latest };
      const take = () => (kind === 'span' ? spansPlanner.take(ask) : blocksPlanner.take(ask));
      const decision = decideEpoch({ reading, threshold: 0.7, epochCount: epochs, take });
      latchedHere = decision.kind === 'latch';
      if (decision.kind === 'latch') {
        epochs++;
        const taken =
          decision.span !== undefined
            ? restoresIn(messages, (i) => i >= decision.span!.first && i <= decision.span!.last)
            : restoresIn(messages, (_, id) => decision.added.some((b) => index.toolResults[b.ordinal]?.toolUseId === id));
        // At the gate's ceiling the window forces the working set out (core/shed/plan-to-fit.ts): (a) and (b) hold below it.
        const forced = reading.contextTokens >= GATE_CEILING * WINDOW;
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
    const sent =
      kind === 'span'
        ? applyEpochs(SPANS, body, spans, { sha256, spansDir: SPANS_DIR })
        : applyEpochs(TOOL_RESULTS, body, blocks, { sha256, elidedDir: ELIDED_DIR });
    const tokens = Math.ceil(sent.body.length / BYTES_PER_TOKEN);
    // (d): the request an epoch latched on, with that epoch applied, on a reading within the window.
    if (latchedHere && tokens > WINDOW && (reading?.contextTokens ?? 0) <= WINDOW) over++;
    reading = { contextTokens: tokens, window: WINDOW, epochsApplied: epochs, requestBytes: sent.body.length };
  }
  return { over, epochs, added, violations };
}

const stepsArb = fc.array(stepArb, { minLength: 40, maxLength: 100 });

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
        { numRuns: 15, endOnFailure: true },
      );
      expect(latched).toBeGreaterThan(0);
    });
  }
});
