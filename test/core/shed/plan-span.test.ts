import { describe, expect, it } from 'vitest';
import { freezeSpan, planShed } from '../../../src/core/shed/plan-span.js';
import { GOAL_MARKER, type PlannedSpan } from '../../../src/core/shed/shed-types.js';
import { SPAN_STUB_TOKENS_PER_BYTE } from '../../../src/core/shed/span-stub.js';
import { readMessagesFacts } from '../../../src/core/shed/message-facts.js';
import { bodyOf, calls, fromUtf8, mustIndex, prompt, results, session, sha256, utf8, type Message } from './shed-bodies.js';
// The kinds' registry names the folders whose files are stored texts (core/stored-files.ts); the core's entry loads it.
import '../../../src/core/epochs/kind-info.js';

/** Two later turns of the person, so the window does not reach back to an early prompt. */
const LATER: Message[] = [{ role: 'assistant', content: 'ok' }, prompt('b'), { role: 'assistant', content: 'ok' }, prompt('c')];

/** A budget that keeps the newest 6 tool turns of session(10) (messages 9..20 are 1 byte over it). */
const RECENT_TOKENS = (() => {
  const m = mustIndex(bodyOf(session(10))).messages;
  return (m[m.length - 1]!.end - m[10]!.start) * SPAN_STUB_TOKENS_PER_BYTE;
})();

function planned(messages: readonly Message[], recentTokens = RECENT_TOKENS): { body: Uint8Array; span: PlannedSpan } {
  const body = bodyOf(messages);
  const plan = planShed(body, [], { readFacts: readMessagesFacts, sha256, recentTokens });
  if (plan.kind !== 'planned') throw new Error(`expected a span: ${plan.reason}`);
  return { body, span: plan.span };
}

describe('planShed', () => {
  it("should freeze the span's exact bytes, their sha256 and length", () => {
    const { body, span } = planned(session(10));

    const index = mustIndex(body);
    const exact = body.subarray(index.messages[1]!.start, index.messages[8]!.end);
    expect(span).toMatchObject({ first: 1, last: 8, bytes: exact.length, sha256: sha256(exact), pins: [], windowStart: 10 });
    expect(fromUtf8(span.text)).toBe(fromUtf8(exact));
    expect(span.tombstone).toBeUndefined();
  });

  it('should hoist every text carrying the goal marker, verbatim and in order, and nothing else', () => {
    const messages = [
      prompt('go'),
      { role: 'assistant', content: [{ type: 'text', text: `${GOAL_MARKER} keep the API stable\n  exactly` }] },
      prompt(`and ${GOAL_MARKER} no new deps`),
      calls(['f']),
      results(['f'], `${GOAL_MARKER} in a file the agent read`),
      ...session(10).slice(1),
      ...LATER,
    ];

    const { span } = planned(messages);

    expect(span.pins).toEqual([`${GOAL_MARKER} keep the API stable\n  exactly`, `and ${GOAL_MARKER} no new deps`]);
  });

  it("should carry the client's notices that stay in force, verbatim and in order, apart from the pins", () => {
    const tools =
      '<system-reminder>\nThe following deferred tools are now available via ToolSearch. Their schemas are NOT loaded.\nmcp__x__y\n</system-reminder>';
    const mcp = '<system-reminder>\n# MCP Server Instructions\n\n## x\nUse y.\n</system-reminder>';
    const messages = [
      prompt('go'),
      { role: 'assistant', content: [{ type: 'text', text: 'noted' }] },
      {
        role: 'user',
        content: [
          { type: 'text', text: tools },
          { type: 'text', text: mcp },
          { type: 'text', text: `${GOAL_MARKER} ship it` },
        ],
      },
      { role: 'assistant', content: [{ type: 'text', text: 'I will quote it: <system-reminder> The following deferred tools are now available via' }] },
      ...session(10).slice(1),
      ...LATER,
    ];

    const { span } = planned(messages);

    expect(span.notices).toEqual([tools, mcp]);
    expect(span.pins).toEqual([`${GOAL_MARKER} ship it`]);
    expect(freezeSpan(span).notices).toEqual([tools, mcp]);
    expect(planned(session(10)).span.notices).toBeUndefined();
    expect('notices' in freezeSpan(planned(session(10)).span)).toBe(false);
  });

  it('should carry every text of the client\'s role "system" messages, as Claude Code 2.1.328 sends them, apart from the pins', () => {
    // 2.1.328's first request is [user, system]: the system message holds the environment, the
    // skills and the deferred-tool list, ctxshed's own restore tool among them.
    const env = '# Environment\nWorking directory: /home/me/proj\nPlatform: linux';
    const deferred = 'The following deferred tools are available via ToolSearch:\nmcp__ctxshed__restore\nmcp__ctxshed__spans';
    const later = 'The user sent a new message while you were working: also update the docs';
    const messages = [
      prompt('go'),
      {
        role: 'system',
        content: [
          { type: 'text', text: env },
          { type: 'text', text: deferred },
        ],
      },
      ...session(4).slice(1),
      { role: 'system', content: later },
      ...Array.from({ length: 10 }, (_, t) => [calls([`u${t}`]), results([`u${t}`])]).flat(),
    ];

    const { span } = planned(messages);

    expect(span.first).toBe(1);
    expect(span.notices).toEqual([env, deferred, later]);
    expect(span.notices?.some((n) => n.includes('mcp__ctxshed__restore'))).toBe(true);
  });

  it("should carry the person's latest prompt verbatim when it lies in the span, not the client's own texts", () => {
    const ask = 'continue until all are done\n  (the  parser first)';
    const messages = [
      prompt('Port the decoder.'),
      { role: 'assistant', content: 'ok' },
      { role: 'user', content: [{ type: 'text', text: '<task-notification>task 3 finished</task-notification>' }] },
      { role: 'assistant', content: 'noted' },
      {
        role: 'user',
        content: [
          { type: 'text', text: '<system-reminder>r</system-reminder>' },
          { type: 'text', text: ask },
        ],
      },
      ...session(10).slice(1),
    ];

    const { span } = planned(messages);

    expect(span.prompt).toBe(ask);
    expect(freezeSpan(span).prompt).toBe(ask);
    // A task notification alone is not the person: the prompt before it is the latest.
    const notified = planned([...messages.slice(0, 4), ...session(10).slice(1)]).span;
    expect(notified.prompt).toBeUndefined();
    expect(notified.tombstone).toBeUndefined();
  });

  it('should find a marker spelled with escapes', () => {
    const messages = [prompt('a'), { role: 'assistant', content: 'b' }, prompt('PIN_HERE'), ...session(10).slice(1), ...LATER];
    const body = utf8(JSON.stringify({ messages }).replace('"PIN_HERE"', '"\\u005bctxshed:goal] y"'));

    const plan = planShed(body, [], { readFacts: readMessagesFacts, sha256, recentTokens: RECENT_TOKENS });

    expect(plan.kind === 'planned' ? plan.span.pins : plan).toEqual([`${GOAL_MARKER} y`]);
  });

  it('should refuse rather than lose a pinned text that is not valid Unicode', () => {
    const body = utf8(
      JSON.stringify({ messages: [prompt('a'), { role: 'assistant', content: 'b' }, prompt('c'), ...session(10).slice(1), ...LATER] }).replace(
        '"content":"c"',
        `"content":"${GOAL_MARKER} \\ud800"`,
      ),
    );

    expect(planShed(body, [], { readFacts: readMessagesFacts, sha256, recentTokens: RECENT_TOKENS })).toMatchObject({ kind: 'none', reason: 'unreadable_pin' });
  });

  it("should leave a tombstone of the person's first prompt when it falls in the span", () => {
    const image = { role: 'user', content: [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AAAA' } }] };
    const messages = [
      image,
      { role: 'assistant', content: 'What now?' },
      prompt('<system-reminder>r</system-reminder>\n  Port the   decoder.'),
      ...session(10).slice(1),
      ...LATER,
    ];

    const { span } = planned(messages);

    expect(span.tombstone).toBe('Port the decoder.');
  });

  it('should say why when nothing can be shed, and never throw', () => {
    expect(planShed(bodyOf(session(2)), [], { readFacts: readMessagesFacts, sha256, recentTokens: RECENT_TOKENS })).toMatchObject({
      kind: 'none',
      reason: 'too_few_messages',
    });
    expect(planShed(utf8('{"messages":'), [], { readFacts: readMessagesFacts, sha256 })).toMatchObject({ kind: 'none', reason: 'unreadable_body' });
    expect(
      planShed(bodyOf(session(10)), [], {
        readFacts: readMessagesFacts,
        recentTokens: RECENT_TOKENS,
        sha256: () => {
          throw new Error('boom');
        },
      }),
    ).toMatchObject({ kind: 'none', reason: 'unreadable_body' });
  });

  it('should plan the next span after a frozen one', () => {
    const first = planned(session(10)).span;

    const next = planShed(bodyOf(session(20)), [freezeSpan(first)], { readFacts: readMessagesFacts, sha256, recentTokens: RECENT_TOKENS });

    expect(next).toMatchObject({ kind: 'planned', span: { first: 9 } });
  });
});

describe('freezeSpan', () => {
  it('should keep the record fields and drop the bytes and the window', () => {
    const { span } = planned(session(10));

    expect(freezeSpan(span)).toEqual({ first: span.first, last: span.last, sha256: span.sha256, bytes: span.bytes, pins: [] });
    expect(freezeSpan({ ...span, tombstone: 't' })).toHaveProperty('tombstone', 't');
  });
});
