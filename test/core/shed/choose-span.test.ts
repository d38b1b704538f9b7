import { describe, expect, it } from 'vitest';
import { chooseSpan, type FrozenSpan } from '../../../src/core/index.js';
import { bodyOf, calls, factsOf, mustIndex, prompt, reply, results, session, type Message } from './shed-bodies.js';

function choose(messages: readonly Message[], frozen: readonly FrozenSpan[] = [], policy = { keepToolResults: 6, keepPersonTurns: 2 }, model?: string) {
  const body = bodyOf(messages, model);
  return chooseSpan(mustIndex(body), factsOf(body), frozen, policy);
}

// A tool search's answer: a tool_result whose content loads a deferred tool.
const loads = (id: string): Message => ({ role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: [{ type: 'tool_reference', tool_name: 'mcp__x__y' }] }] });

const span = (first: number, last: number): FrozenSpan => ({ first, last, sha256: '0'.repeat(64), bytes: 1, pins: [] });

describe('chooseSpan', () => {
  it('should shed from message 1 to just before the assistant call of the 6th newest tool result', () => {
    // 0: prompt, then (2t+1: call t, 2t+2: result t) for t = 0..9; the 6 newest results are t4..t9.
    const messages = session(10);

    const choice = choose(messages);

    // t4's result is message 10; its call, message 9, starts the window.
    expect(choice).toEqual({ kind: 'span', first: 1, last: 8, windowStart: 10 });
  });

  it('should keep the person\'s last two turns, whatever the tool results say', () => {
    const messages = [...session(10), reply('done'), prompt('next'), calls(['u1']), results(['u1']), reply('ok'), prompt('last')];

    const choice = choose(messages, [], { keepToolResults: 1, keepPersonTurns: 2 });

    // Person turns: 0 (the head), 22 ('next') and 27 ('last'): the window reaches back to 22,
    // and to the assistant reply (21) before it, which the stub can precede.
    expect(choice).toMatchObject({ kind: 'span', first: 1, last: 20 });
    expect(messages[21]!.role).toBe('assistant');
  });

  it('should count a person\'s turn in the head without holding the window back', () => {
    const choice = choose(session(10), [], { keepToolResults: 1, keepPersonTurns: 2 });

    // Only one person turn, in the head: the window is the newest result's call and result.
    expect(choice).toMatchObject({ kind: 'span', first: 1, last: 18 });
  });

  it('should keep the one later turn when the other of the last two is in the head', () => {
    const messages = [...session(10), reply('done'), prompt('next'), calls(['u1']), results(['u1'])];

    const choice = choose(messages, [], { keepToolResults: 1, keepPersonTurns: 2 });

    // Person turns: 0 (the head) and 22 ('next'): the window reaches back to 21.
    expect(choice).toMatchObject({ kind: 'span', first: 1, last: 20 });
  });

  it('should always keep the last assistant message and the last message', () => {
    const messages = [prompt('a'), calls(['t0']), results(['t0']), reply('done'), prompt('b'), reply('sure')];

    const choice = choose(messages, [], { keepToolResults: 0, keepPersonTurns: 0 });

    expect(choice).toMatchObject({ kind: 'span', first: 1, last: 4 });
  });

  it('should start after the last message that loads a deferred tool, keeping every load', () => {
    // Message 4 (t1's result) is a tool search's answer: it loads a deferred tool.
    const messages = session(10).map((m, i) => (i === 4 ? loads('t1') : m));

    const choice = choose(messages);

    expect(choice).toEqual({ kind: 'span', first: 5, last: 8, windowStart: 10 });
  });

  it('should shed nothing when a load sits right before the recent window', () => {
    const messages = session(10).map((m, i) => (i === 8 ? loads('t3') : m));

    const choice = choose(messages);

    expect(choice).toMatchObject({ kind: 'none', reason: 'loaded_tool' });
  });

  it('should ignore a load inside the recent window', () => {
    const messages = session(10).map((m, i) => (i === 12 ? loads('t5') : m));

    const choice = choose(messages);

    expect(choice).toEqual({ kind: 'span', first: 1, last: 8, windowStart: 10 });
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
    const marked = (m: Message): Message => ({ ...m, content: [...(m.content as object[]).slice(0, -1), { ...(m.content as object[]).at(-1)!, cache_control: { type: 'ephemeral' } }] });
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

    const choice = choose(late, [], { keepToolResults: 1, keepPersonTurns: 0 });

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

    expect(choose(thinking, [], undefined, 'claude-opus-5-5-20270101')).toMatchObject({ kind: 'span' });
    expect(choose(thinking, [], undefined, 'claude-sonnet-4-5')).toMatchObject({ kind: 'span' });
  });
});
