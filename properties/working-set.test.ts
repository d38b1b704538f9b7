/**
 * The working set (docs/shed.md and docs/rescue.md, "The working set"; issue 39), over generated
 * sessions with a scripted model that reads files and brings stored texts back in bursts (with the
 * restore tool, with a Read of the stored file as Claude Code answers it, or both), run through the
 * core as the engine runs it: each request is the client's transcript with the epochs applied
 * (applyEpochs) and each text brought back twice carried once (core/repeats/), measured at 4 bytes a
 * token against the window, and the next request decides an epoch on that reading (decideEpoch on
 * the kind's take). For both kinds:
 *
 * (a) nothing brought back since the person's latest prompt is ever taken out by an epoch;
 * (b) nothing is taken out twice by two epochs in a row (no prompt between them), under the gate's
 *     ceiling (from there on the window may force out what came back before the latest prompt);
 * (c) the epochs are bounded by the new material: at most one more than the tokens the model read
 *     (what it brought back not counted), over the minimum gain;
 * (d) the request after any epoch, with that epoch applied, fits the window whenever some plan of the
 *     frozen and eligible items could make it fit (the longest span the policy allows around what was
 *     brought back since the latest prompt, or every eligible block stubbed but those);
 * (e) a text is never carried twice in one request: no answer that brought a stored text back holds
 *     only text that an answer before it (or a longer one of its own message), bringing back the
 *     same original, holds whole. (An answer that holds an earlier one and more is sent whole.)
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MESSAGES_API } from '../src/core/dialects/messages.js';
import { applyEpochs } from '../src/core/epochs/apply.js';
import { applyRepeats, planRepeats } from '../src/core/repeats/plan-repeats.js';
import { findRepeats, REPEAT_MIN_CHARS } from '../src/core/repeats/find-repeats.js';
import { renderSpanMarkdown } from '../src/core/shed/render-span-markdown.js';
import { repeatGroupsOfAsk, wholeGroups } from '../src/core/epochs/repeat-groups.js';
import { workingSetOf, workingSetOrdinals } from '../src/core/epochs/working-set.js';
import { decideEpoch } from '../src/core/decide/decide-epoch.js';
import { DEFAULT_POLICY, freezeBlock, planElision } from '../src/core/plan-elision.js';
import { DEFAULT_SHED_POLICY, type FrozenSpan } from '../src/core/shed/shed-types.js';
import { freezeSpan, planShed } from '../src/core/shed/plan-span.js';
import { GATE_CEILING } from '../src/core/break-even.js';
import { indexTranscript } from '../src/core/messages/transcript-index.js';
import { NO_ITEMS, type FrozenItems } from '../src/core/epochs/frozen-items.js';
import { SPANS } from '../src/core/epochs/spans/spans.js';
import { spansLatch } from '../src/core/epochs/spans/spans-latch.js';
import { TOOL_RESULTS } from '../src/core/epochs/tool-results/tool-results.js';
import { toolResultsLatch } from '../src/core/epochs/tool-results/tool-results-latch.js';
import type { EpochAsk } from '../src/core/epochs/epoch-planner.js';
import type { FrozenBlock } from '../src/core/epoch-types.js';
import type { FullnessReading } from '../src/core/fullness-reading.js';
import type { TranscriptIndex } from '../src/core/transcript-index-types.js';
import { readMessagesFacts } from '../src/core/shed/message-facts.js';
import { renderRestore } from '../src/mcp/restore-tool.js';
import { readAsClaudeCode } from '../src/scripted/read-tool.js';
import { sha256 } from './support/sha256.js';

const WINDOW = 20_000;
/** The most one burst of restores brings back, in bytes: under the headroom the threshold leaves (30% of the window). */
const BURST_BYTES = 18_000;
/** A restore page, in characters (a span's text comes back page by page: the room the restore tool is told of sets it). */
const PAGE_CHARS = 8_000;
const BYTES_PER_TOKEN = 4;
const RESTORE = 'mcp__ctxshed__restore';
const SPANS_DIR = '/state/spans';
const ELIDED_DIR = '/state/elided';

/** How a burst brings a stored text back: the restore tool, a Read of its file, or both (the careful agent of issue 39). */
type Via = 'restore' | 'read' | 'both';
type Step =
  | { readonly kind: 'read'; readonly bytes: number }
  | { readonly kind: 'prompt' }
  | { readonly kind: 'burst'; readonly size: number; readonly via: Via };
type Message = { readonly role: string; readonly content: unknown };

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('read' as const), bytes: fc.integer({ min: 200, max: 5_000 }) }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'prompt' as const }) },
  {
    weight: 3,
    arbitrary: fc.record({ kind: fc.constant('burst' as const), size: fc.integer({ min: 1, max: 4 }), via: fc.constantFrom<Via>('restore', 'read', 'both') }),
  },
);

/** A stored text the model may bring back: its sha256, the text restore and a Read give, and the file a Read opens. */
interface Stored {
  readonly sha256: string;
  readonly text: string;
  readonly path: string;
}

/** What happened in one session. */
interface Run {
  readonly over: number;
  readonly epochs: number;
  readonly added: number;
  /** What broke (a), (b) or (e), for the counterexample. */
  readonly violations: string[];
}

const encode = (messages: readonly Message[]): Uint8Array =>
  new TextEncoder().encode(JSON.stringify({ model: 'claude-sonnet-4-5', max_tokens: 100, messages }));

function mustIndex(body: Uint8Array): TranscriptIndex {
  const indexed = indexTranscript(body);
  if (indexed.kind === 'failed') throw new Error(indexed.reason);
  return indexed.index;
}

/** The bring-back calls whose answers lie in messages [first, last] (spans) or among `ordinals` (blocks). */
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

/** The room that makes `ctxshed mcp`'s restore answer a first page of PAGE_CHARS characters (half the room, 4 characters a token). */
const PAGE_ROOM = { key: 'k', at: 't', fullness: 0.8, window: WINDOW, leftTokens: PAGE_CHARS / 2, given: 0 };

/**
 * The answers a burst gives for `stored` by `via`: the first page of a restore as `ctxshed mcp`
 * answers it, a Read of the lines that page holds as Claude Code answers it, or both.
 */
function bringBack(stored: Stored, via: Via, id: () => string): Array<{ id: string; name: string; input: unknown; answer: string }> {
  const answer = renderRestore(
    { kind: 'restored', handle: stored.sha256, source: 'stored text', bytes: new Uint8Array(0), rendering: stored.text },
    0,
    PAGE_ROOM,
  );
  const restore = { id: id(), name: RESTORE, input: { handle: stored.sha256 }, answer: answer.content[0]!.text };
  // The whole lines of the first page: a text no longer than a page is read whole.
  const lines = stored.text.length <= PAGE_CHARS ? {} : { offset: 1, limit: stored.text.slice(0, PAGE_CHARS).split('\n').length - 1 };
  const read = { id: id(), name: 'Read', input: { file_path: stored.path, ...lines }, answer: readAsClaudeCode(stored.text, lines, 'current') };
  return via === 'restore' ? [restore] : via === 'read' ? [read] : [restore, read];
}

/** Runs one session in `kind`'s mode. */
function runSession(kind: 'span' | 'tool_results', steps: readonly Step[]): Run {
  const messages: Message[] = [{ role: 'user', content: 'Read the project, then check your work.' }];
  const stored: Stored[] = [];
  const spans: FrozenSpan[] = [];
  const blocks: FrozenBlock[] = [];
  const violations: string[] = [];
  /** The sha256 each bring-back call brought back, and what the latest epoch froze. */
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
      const uses: Array<{ id: string; name: string; input: unknown; answer: string }> = [];
      let bytes = 0;
      for (const s of stored.slice(-step.size)) {
        const back = bringBack(s, step.via, () => `r${call++}`);
        // Both ways bring one text back, and one of the two goes as a pointer: count it once.
        const size = Math.max(...back.map((u) => u.answer.length));
        if (bytes + size > BURST_BYTES) continue;
        bytes += size;
        for (const u of back) {
          uses.push(u);
          restoredBy.set(u.id, s.sha256);
          sincePrompt.add(u.id);
        }
      }
      if (uses.length === 0) continue;
      turn(uses);
    }
    messages.push({ role: 'assistant', content: [{ type: 'text', text: 'ok' }] });
    const body = encode(messages);
    messages.pop();
    const index = mustIndex(body);
    // What the request carries before this step's decision, and the least any plan of the frozen and eligible items leaves.
    const before = { spans: [...spans], blocks: [...blocks] };
    const carried = () => sentTokens(kind, body, before.spans, before.blocks);
    const items = (): FrozenItems => ({ ...NO_ITEMS, tool_results: [...blocks], span: [...spans] });
    const least = () => leastTokens(kind, body, index, items());
    let latchedHere = false;
    // The next request decides on the last reading (decide-epoch.ts), and carries what latched.
    if (reading !== undefined) {
      const ask: EpochAsk = {
        readFacts: readMessagesFacts,
        modelCalls: MESSAGES_API.modelCalls(index),
        body,
        index,
        reading,
        items: items(),
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
        // (a) always; (b) under the gate's ceiling, from which the window may force out what came back before the latest prompt.
        const forced = carried() >= GATE_CEILING * WINDOW;
        for (const id of taken) {
          if (sincePrompt.has(id)) violations.push(`(a) epoch ${epochs} took ${id}, brought back since the latest prompt`);
          if (!forced && latest.includes(restoredBy.get(id) ?? ''))
            violations.push(`(b) epoch ${epochs} took ${id}, which brought back what epoch ${epochs - 1} took`);
        }
        latest = [];
        if (decision.span !== undefined) {
          spans.push(freezeSpan(decision.span));
          latest.push(decision.span.sha256);
          const text = renderSpanMarkdown(decision.span.text, decision.span.sha256);
          stored.push({ sha256: decision.span.sha256, text, path: `${SPANS_DIR}/${decision.span.sha256}.md` });
        }
        for (const b of decision.added) {
          const planned = b as unknown as FrozenBlock & { text: Uint8Array };
          blocks.push(freezeBlock(planned));
          latest.push(planned.sha256);
          stored.push({ sha256: planned.sha256, text: new TextDecoder().decode(planned.text), path: `${ELIDED_DIR}/${planned.sha256}.txt` });
        }
      }
    }
    const sent = sentBody(kind, body, spans, blocks);
    // (e): no text carried twice in the request as sent.
    for (const twice of carriedTwice(sent, new Set(stored.map((t) => t.sha256)))) violations.push(`(e) request ${call}: ${twice}`);
    const tokens = Math.ceil(sent.length / BYTES_PER_TOKEN);
    // (d): the request after an epoch, with that epoch applied, fits the window whenever some plan could make it fit.
    if (latchedHere && tokens > WINDOW && least() <= WINDOW) over++;
    reading = { contextTokens: tokens, window: WINDOW, epochsApplied: epochs, requestBytes: tokens * BYTES_PER_TOKEN };
  }
  return { over, epochs, added, violations };
}

/** The request as sent: the body with the frozen items applied, then each text brought back twice carried once (core/repeats/). */
function sentBody(kind: 'span' | 'tool_results', body: Uint8Array, spans: readonly FrozenSpan[], blocks: readonly FrozenBlock[]): Uint8Array {
  const applied =
    kind === 'span'
      ? applyEpochs(SPANS, body, spans, { sha256, spansDir: SPANS_DIR })
      : applyEpochs(TOOL_RESULTS, body, blocks, { sha256, elidedDir: ELIDED_DIR });
  if (applied.kind !== 'applied') return applied.body;
  const index = mustIndex(applied.body);
  const shas = frozenShasOf(spans, blocks);
  const planned = planRepeats(applied.body, index, findRepeats(applied.body, index, shas), ELIDED_DIR, sha256);
  if (planned.length === 0) return applied.body;
  const repeated = applyRepeats(applied.body, index, planned, (b) => mustIndex(b));
  return repeated.kind === 'applied' ? repeated.body : applied.body;
}

/** The tokens of the request as sent, at 4 bytes a token. */
function sentTokens(kind: 'span' | 'tool_results', body: Uint8Array, spans: readonly FrozenSpan[], blocks: readonly FrozenBlock[]): number {
  return Math.ceil(sentBody(kind, body, spans, blocks).length / BYTES_PER_TOKEN);
}

function frozenShasOf(spans: readonly FrozenSpan[], blocks: readonly FrozenBlock[]): Set<string> {
  return new Set([...spans.map((x) => x.sha256), ...blocks.map((b) => b.sha256)]);
}

/**
 * (e)'s reference, written apart from core/repeats/: every answer of the sent body that brought a
 * stored text back, its text taken off the restore header or the Read line numbers; any one of
 * them whose text one before it holds whole (same original, at least REPEAT_MIN_CHARS) is carried twice.
 */
function carriedTwice(sent: Uint8Array, stored: ReadonlySet<string>): string[] {
  const parsed = JSON.parse(new TextDecoder().decode(sent)) as { messages: Array<{ content: unknown }> };
  const calls = new Map<string, string>();
  const copies: Array<{ id: string; sha: string; text: string; message: number; at: number }> = [];
  for (const [message, m] of parsed.messages.entries()) {
    if (!Array.isArray(m.content)) continue;
    for (const b of m.content as Array<Record<string, unknown>>) {
      if (b['type'] === 'tool_use') {
        const input = b['input'] as Record<string, string>;
        const sha = /([0-9a-f]{64})/.exec(input['handle'] ?? input['file_path'] ?? '')?.[1];
        if (sha !== undefined && stored.has(sha)) calls.set(String(b['id']), `${b['name']} ${sha}`);
      }
      if (b['type'] !== 'tool_result' || typeof b['content'] !== 'string') continue;
      const call = calls.get(String(b['tool_use_id']));
      if (call === undefined) continue;
      const [name, sha] = call.split(' ') as [string, string];
      const text = name === 'Read' ? b['content'].replace(/^\d+\t/gm, '') : b['content'].slice(b['content'].indexOf('\n') + 1);
      if (b['content'].includes('[ctxshed: not repeated: ')) continue;
      copies.push({ id: String(b['tool_use_id']), sha, text, message, at: copies.length });
    }
  }
  // What stood before it: an answer of an earlier message, or a longer one (or an equal one before it) of its own message.
  const before = (d: (typeof copies)[number], c: (typeof copies)[number]): boolean =>
    d.message < c.message || (d.message === c.message && (d.text.length > c.text.length || (d.text.length === c.text.length && d.at < c.at)));
  const twice: string[] = [];
  for (const c of copies) {
    if (c.text.length < REPEAT_MIN_CHARS) continue;
    const holder = copies.find((d) => d !== c && d.sha === c.sha && before(d, c) && d.text.includes(c.text));
    if (holder !== undefined) twice.push(`${c.id} is held whole by ${holder.id}`);
  }
  return twice;
}

/**
 * The least a plan of the frozen and eligible items can leave the request at: the longest span the
 * policy allows (the recent window at its floor) around what was brought back since the latest
 * prompt, which no epoch takes, or every eligible block stubbed but those; answers that go
 * together (a repeat and the copies it points to) whole or not at all.
 */
function leastTokens(kind: 'span' | 'tool_results', body: Uint8Array, index: TranscriptIndex, items: FrozenItems): number {
  const { span: spans, tool_results: blocks } = items;
  const held = workingSetOf(body, index, frozenShasOf(spans, blocks)).sincePrompt;
  const together = repeatGroupsOfAsk({ body, index, items });
  if (kind === 'span') {
    const keep = { keepFrom: held.firstMessage, keepTo: held.lastMessage, together };
    const plan = planShed(body, spans, { readFacts: readMessagesFacts, sha256, recentTokens: DEFAULT_SHED_POLICY.recentFloorTokens, index, ...keep });
    return sentTokens(kind, body, plan.kind === 'planned' ? [...spans, freezeSpan(plan.span)] : spans, blocks);
  }
  const frozen = new Set(blocks.map((b) => b.ordinal));
  const kept = workingSetOrdinals(index, held);
  const eligible = planElision(body, index, DEFAULT_POLICY, sha256, { elidedDir: ELIDED_DIR }).filter((b) => !frozen.has(b.ordinal) && !kept.has(b.ordinal));
  const all = [...blocks, ...wholeGroups(eligible, together).map(freezeBlock)].sort((x, y) => x.ordinal - y.ordinal);
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
    return word[0] === 'r' ? { kind: 'read', bytes: n } : word[0] === 'b' ? { kind: 'burst', size: n, via: 'restore' } : { kind: 'prompt' };
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
          // (c): every epoch frees at least the minimum gain (a tenth of the window) of new material, so there are at most this many.
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
