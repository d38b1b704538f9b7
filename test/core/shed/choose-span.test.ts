import { describe, expect, it } from 'vitest';
import { chooseSpan } from '../../../src/core/shed/choose-span.js';
import { SPAN_STUB_TOKENS_PER_BYTE } from '../../../src/core/shed/span-stub.js';
import type { FrozenSpan } from '../../../src/core/shed/shed-types.js';
import { bodyOf, calls, factsOf, mustIndex, prompt, reply, results, session, type Message } from './shed-bodies.js';
// The kinds' registry names the folders whose files are stored texts (core/stored-files.ts); the core's entry loads it.
import '../../../src/core/epochs/kind-info.js';

// The budget of the old default's window: the 6 newest tool results of session(10) (messages 9..20).
const SIX_RESULTS = (): number => tailTokens(session(10), 9);

function choose(messages: readonly Message[], frozen: readonly FrozenSpan[] = [], recentTokens = SIX_RESULTS(), model?: string) {
  const body = bodyOf(messages, model);
  return chooseSpan(mustIndex(body), factsOf(body), frozen, recentTokens);
}

/** The estimated tokens of messages[from..] as they lie in the body (separators included). */
function tailTokens(messages: readonly Message[], from: number): number {
  const index = mustIndex(bodyOf(messages));
  const m = index.messages;
  return from >= m.length ? 0 : (m[m.length - 1]!.end - m[from]!.start) * SPAN_STUB_TOKENS_PER_BYTE;
}

// The answer of ctxshed's restore tool: a call, then its tool_result.
const restoreCall = (id: string): Message => ({
  role: 'assistant',
  content: [{ type: 'tool_use', id, name: 'mcp__ctxshed__restore', input: { handle: 'a'.repeat(64) } }],
});
const restoreAnswer = (id: string, bytes: number): Message => ({
  role: 'user',
  content: [{ type: 'tool_result', tool_use_id: id, content: 'r'.repeat(bytes) }],
});

// A tool search's answer: a tool_result whose content loads a deferred tool.
const loads = (id: string): Message => ({
  role: 'user',
  content: [{ type: 'tool_result', tool_use_id: id, content: [{ type: 'tool_reference', tool_name: 'mcp__x__y' }] }],
});

const span = (first: number, last: number): FrozenSpan => ({ first, last, sha256: '0'.repeat(64), bytes: 1, pins: [] });

describe('chooseSpan', () => {
  it('should keep the newest messages that fit the budget, and shed from message 1 to before them', () => {
    // 0: prompt, then (2t+1: call t, 2t+2: result t) for t = 0..9.
    const messages = session(10);

    // Messages 9..20 fit exactly; one byte less and 9 no longer does, so the window starts at 10.
    expect(choose(messages, [], tailTokens(messages, 9))).toEqual({ kind: 'span', first: 1, last: 8, windowStart: 9 });
    expect(choose(messages, [], tailTokens(messages, 9) - SPAN_STUB_TOKENS_PER_BYTE)).toEqual({ kind: 'span', first: 1, last: 8, windowStart: 10 });
  });

  it("should not hold the window back for the person's turns: a long autonomous run after a prompt is shed", () => {
    // "continue until all are done" (message 22), then forty tool turns on its own.
    const messages = [...session(10), reply('done'), prompt('continue until all are done'), ...session(40).slice(1).map(rename)];

    const choice = choose(messages, [], tailTokens(messages, messages.length - 6));

    expect(choice).toMatchObject({ kind: 'span', first: 1 });
    if (choice.kind === 'span') expect(choice.last).toBeGreaterThan(22);
  });

  it('should always keep the last assistant message and the last message, even over the budget', () => {
    const messages = [prompt('a'), calls(['t0']), results(['t0']), reply('done'), prompt('b'), reply('sure')];

    expect(choose(messages, [], 0)).toMatchObject({ kind: 'span', first: 1, last: 4, windowStart: 5 });
    const big = [...session(4), calls(['big']), results(['big'], 'y'.repeat(50_000))];
    expect(choose(big, [], 10)).toMatchObject({ kind: 'span', first: 1, last: 8, windowStart: 9 });
  });

  it("should keep a restore's answer while what follows it fits the budget, however large it is", () => {
    const messages = [...session(6), restoreCall('r1'), restoreAnswer('r1', 40_000), ...session(3).slice(1).map(rename)];
    const after = tailTokens(messages, 15);

    // Messages 15.. fit; the 40 KB answer (14) does not, yet it is recent: its call (13) starts the window.
    expect(choose(messages, [], after)).toMatchObject({ kind: 'span', first: 1, last: 12, windowStart: 14 });
    // Once more than the budget lies after it, it is old like anything else.
    expect(choose(messages, [], after - 1)).toMatchObject({ kind: 'span', first: 1, last: 14 });
  });

  it("should treat a Read of a span's .md or an elided file as a restore, and no other Read", () => {
    const read = (id: string, path: string): Message => ({ role: 'assistant', content: [{ type: 'tool_use', id, name: 'Read', input: { file_path: path } }] });
    const span = `/s/spans/${'b'.repeat(64)}.md`;
    const elided = `/s/elided/${'c'.repeat(64)}.txt`;
    for (const [path, kept] of [
      [span, true],
      [elided, true],
      ['/src/a.ts', false],
    ] as const) {
      const messages = [...session(6), read('r1', path), restoreAnswer('r1', 40_000), ...session(3).slice(1).map(rename)];
      const choice = choose(messages, [], tailTokens(messages, 15));
      expect(choice).toMatchObject({ kind: 'span', last: kept ? 12 : 14 });
    }
  });

  it('should start after the last message that loads a deferred tool, keeping every load', () => {
    // Message 4 (t1's result) is a tool search's answer: it loads a deferred tool.
    const messages = session(10).map((m, i) => (i === 4 ? loads('t1') : m));

    const choice = choose(messages);

    expect(choice).toMatchObject({ kind: 'span', first: 5, last: 8 });
  });

  it('should shed nothing when a load sits right before the recent window', () => {
    const messages = session(10).map((m, i) => (i === 8 ? loads('t3') : m));

    const choice = choose(messages);

    expect(choice).toMatchObject({ kind: 'none', reason: 'loaded_tool' });
  });

  it('should ignore a load inside the recent window', () => {
    const messages = session(10).map((m, i) => (i === 12 ? loads('t5') : m));

    const choice = choose(messages);

    expect(choice).toMatchObject({ kind: 'span', first: 1, last: 8 });
  });

  it('should start a later span right after the last frozen one, never re-cutting it', () => {
    const choice = choose(session(20), [span(1, 8)]);

    expect(choice).toMatchObject({ kind: 'span', first: 9 });
    if (choice.kind === 'span') expect(choice.last).toBeGreaterThan(9);
  });

  it('should say too_few_messages when nothing lies between the head and the window', () => {
    expect(choose(session(3))).toMatchObject({ kind: 'none', reason: 'too_few_messages' });
    expect(choose([prompt('only')])).toMatchObject({ kind: 'none', reason: 'too_few_messages' });
    expect(choose(session(20), [span(1, 30)])).toMatchObject({ kind: 'none', reason: 'too_few_messages' });
  });

  it('should end the span before a message carrying cache_control, and say cached_span when none can', () => {
    const marked = (m: Message): Message => ({
      ...m,
      content: [...(m.content as object[]).slice(0, -1), { ...(m.content as object[]).at(-1)!, cache_control: { type: 'ephemeral' } }],
    });
    const late = session(10);
    late[6] = marked(late[6]!);
    const early = session(10);
    early[2] = marked(early[2]!);

    expect(choose(late)).toMatchObject({ kind: 'span', first: 1, last: 4 });
    expect(choose(early)).toMatchObject({ kind: 'none', reason: 'cached_span' });
  });

  it('should never separate a tool_result from its tool_use', () => {
    // In a valid request every boundary before an assistant message closes the pairs; these two
    // are not valid, and show the span refusing to cut a pair rather than trusting that.
    const late = [prompt('a'), calls(['p0']), prompt('wait'), reply('ok'), results(['p0']), ...session(8).slice(1)];
    const orphan = [prompt('a'), reply('x'), results(['nowhere']), ...session(8).slice(1)];

    const choice = choose(late, [], tailTokens(late, late.length - 2));

    // p0's call (1) and result (4) must stay together: the span cannot end at 2, so it ends later.
    expect(choice).toMatchObject({ kind: 'span', first: 1 });
    if (choice.kind === 'span') expect(choice.last).toBeGreaterThanOrEqual(4);
    expect(choose(orphan)).toMatchObject({ kind: 'none', reason: 'split_tool_pair' });
  });

  it('should move a window that starts on a user message back to the assistant message before it', () => {
    const messages = [prompt('a'), { role: 'system', content: 'agents' }, ...session(10).slice(1)];

    const choice = choose(messages);

    expect(choice.kind).toBe('span');
    if (choice.kind === 'span') {
      expect(choice.first).toBe(1);
      expect(messages[choice.last + 1]!.role).toBe('assistant');
    }
  });

  it('should choose a span whether or not the model checks the prefix of the thinking blocks it keeps', () => {
    // The epoch removes the thinking blocks its span invalidates (docs/shed.md, "Preserved thinking").
    const thinking = session(10, 0, true);

    expect(choose(thinking, [], SIX_RESULTS(), 'claude-opus-5-5-20270101')).toMatchObject({ kind: 'span' });
    expect(choose(session(10), [], SIX_RESULTS(), 'claude-opus-5-5')).toMatchObject({ kind: 'span' });
    expect(choose(thinking, [], SIX_RESULTS(), 'claude-sonnet-4-5')).toMatchObject({ kind: 'span' });
  });
});

// The same messages with tool ids of their own, to append after another session.
function rename(m: Message): Message {
  const content = Array.isArray(m.content)
    ? m.content.map((b: Record<string, unknown>) => ({
        ...b,
        ...(b['id'] === undefined ? {} : { id: `n${String(b['id'])}` }),
        ...(b['tool_use_id'] === undefined ? {} : { tool_use_id: `n${String(b['tool_use_id'])}` }),
      }))
    : m.content;
  return { ...m, content };
}

describe('chooseSpan around what was brought back (issue 39)', () => {
  // 0: prompt, 1..12: six reads, 13..14: a restore, 15..34: ten reads, 35: a reply.
  const messages = [...session(6), restoreCall('r0'), restoreAnswer('r0', 3_000), ...session(10).slice(1).map(renameFrom('n')), reply('ok')];
  const small = 200;
  const body = bodyOf(messages);
  const index = mustIndex(body);

  it('should end before the working set, or start after it, whichever takes more', () => {
    const before = chooseSpan(index, factsOf(body), [], small, { keepFrom: 14, keepTo: 14 });
    expect(before).toMatchObject({ kind: 'span', first: 15, cutByWorkingSet: true });
    // With the working set right after message 2, only a span after it takes anything.
    const early = bodyOf([
      prompt('a'),
      calls(['t0']),
      results(['t0']),
      restoreCall('r0'),
      restoreAnswer('r0', 3_000),
      ...session(10).slice(1).map(renameFrom('n')),
      reply('ok'),
    ]);
    expect(chooseSpan(mustIndex(early), factsOf(early), [], small, { keepFrom: 4, keepTo: 4 })).toMatchObject({ kind: 'span', first: 5 });
    // Ending before it only: the span before it.
    expect(chooseSpan(index, factsOf(body), [], small, { keepFrom: 14 })).toMatchObject({ kind: 'span', first: 1, last: 12 });
  });

  it('should weigh the span before the working set and the one after it on their new weight, not their bytes', () => {
    // After the working set is larger, but all of it was brought back (an older restore's pages, say): the span before it takes more new weight.
    const allBack = (first: number, last: number): number => (first >= 15 ? index.messages[last]!.end - index.messages[first]!.start : 0);
    const choice = chooseSpan(index, factsOf(body), [], small, { keepFrom: 14, keepTo: 14, broughtBack: allBack });
    expect(choice).toMatchObject({ kind: 'span', first: 1, last: 12, cutByWorkingSet: true });
    // Nothing brought back after it: the larger one, as on bytes.
    expect(chooseSpan(index, factsOf(body), [], small, { keepFrom: 14, keepTo: 14, broughtBack: () => 0 })).toMatchObject({ kind: 'span', first: 15 });
  });

  it('should never end a span between a pointer and the copies it points to, nor start one inside them', () => {
    const free = chooseSpan(index, factsOf(body), [], small);
    expect(free.kind === 'span' && free.last).toBeGreaterThan(20);
    // A group reaching into the recent window: the span ends before it; one inside the span's reach goes whole.
    const windowStart = free.kind === 'span' ? free.windowStart : 0;
    const apart = chooseSpan(index, factsOf(body), [], small, { together: [{ from: 4, to: windowStart + 1 }] });
    expect(apart).toMatchObject({ kind: 'span', first: 1 });
    expect(apart.kind === 'span' && apart.last).toBeLessThan(4);
    const whole = chooseSpan(index, factsOf(body), [], small, { together: [{ from: 4, to: 10 }] });
    expect(whole).toEqual(free);
    const inside = chooseSpan(index, factsOf(body), [span(1, 2)], small, { together: [{ from: 2, to: 6 }] });
    expect(inside).toMatchObject({ kind: 'span', first: 7 });
  });
});

function renameFrom(prefix: string): (m: Message) => Message {
  return (m) => JSON.parse(JSON.stringify(m).replace(/"(t\d+)"/g, `"${prefix}$1"`)) as Message;
}
