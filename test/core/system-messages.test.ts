/**
 * `role: "system"` messages inside `messages`, in the shapes Claude Code 2.1.328 (claude-opus-5-5)
 * sends them: the first request's `messages` are `[user, system]`, the system message carrying the
 * environment, agent types, skills and the deferred tools (ctxshed's own MCP tools among them);
 * later requests append reminders and queued input as system messages after the user turn, and the
 * tool list can change between requests (beta `mid-conversation-tool-changes-2026-07-01`). Key
 * order as the client sends it: model, messages, system, tools, metadata, max_tokens, thinking,
 * context_management, output_config, stream.
 */
import { describe, expect, it } from 'vitest';
import { conversationKey, conversationKeyOf, firstPromptExcerpt } from '../../src/core/conversation-key.js';
import { findEligible } from '../../src/core/eligible-blocks.js';
import { findFirstMessage } from '../../src/core/first-message.js';
import { currentTask } from '../../src/core/labels/current-task.js';
import { lastTurnIndex } from '../../src/core/last-turn.js';
import { freezeBlock, planElision } from '../../src/core/plan-elision.js';
import { readNewestToolCalls } from '../../src/core/read-tool-calls.js';
import { rewriteRequest } from '../../src/core/epochs/tool-results/tool-results.js';
import { filler, mustIndex, sha256, utf8 } from './bodies.js';

const PROMPT = 'Find why the build fails and fix it.';
const REMINDERS = "<system-reminder>As you answer the user's questions, you can use the following context: CLAUDE.md ...</system-reminder>";
const ENVIRONMENT =
  '<env>Working directory: /home/me/proj\nIs directory a git repo: Yes\nPlatform: linux</env>\n' +
  'Available agent types: general-purpose, Explore, Plan\nSkills: /review, /init\n' +
  '<available-deferred-tools>\nmcp__ctxshed__restore\nmcp__ctxshed__spans\nNotebookEdit\nWebFetch\n</available-deferred-tools>';
const FIRST_USER = {
  role: 'user',
  content: [
    { type: 'text', text: REMINDERS },
    { type: 'text', text: PROMPT, cache_control: { type: 'ephemeral' } },
  ],
};
const FIRST_SYSTEM = { role: 'system', content: ENVIRONMENT };
const TOOLS = [
  { name: 'Bash', description: 'Run a command', input_schema: { type: 'object' } },
  { name: 'Read', description: 'Read a file', input_schema: { type: 'object' } },
  { name: 'DeferredToolPlaceholder', description: 'Tools loaded on demand', input_schema: { type: 'object' } },
];

/** A request body with the client's key order. */
function request(messages: readonly unknown[], tools: readonly unknown[] = TOOLS): Uint8Array {
  return utf8(
    JSON.stringify({
      model: 'claude-opus-5-5',
      messages,
      system: [
        { type: 'text', text: 'x-anthropic-billing-header: cc_version=2.1.328' },
        { type: 'text', text: 'You are Claude Code.', cache_control: { type: 'ephemeral' } },
      ],
      tools,
      metadata: { user_id: '{"session_id":"s1"}' },
      max_tokens: 128000,
      thinking: { type: 'adaptive', display: 'omitted' },
      context_management: { edits: [{ type: 'clear_thinking_20251015', keep: 'all' }] },
      output_config: { effort: 'medium' },
      stream: true,
    }),
  );
}

/** Turn n: the model reads a file, the client answers with its text. */
function turn(n: number, bytes = 3000): unknown[] {
  return [
    { role: 'assistant', content: [{ type: 'tool_use', id: `toolu_${n}`, name: 'Read', input: { file_path: `/home/me/proj/src/f${n}.ts` } }] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: `toolu_${n}`, content: filler(bytes, n) }] },
  ];
}

const reminder = (text: string): unknown => ({ role: 'system', content: `<system-reminder>${text}</system-reminder>` });
const queued = (text: string): unknown => ({
  role: 'system',
  content: [{ type: 'text', text: `The user sent a new message while you were working:\n${text}` }],
});

/** The first prompt as the client sends it once it is no longer last (breakpoint gone). */
const FIRST_USER_LATER = {
  role: 'user',
  content: [
    { type: 'text', text: REMINDERS },
    { type: 'text', text: PROMPT },
  ],
};
const turns = (count: number): unknown[] => Array.from({ length: count }, (_, i) => turn(i)).flat();
const POLICY = { keepRecent: 2, minBytes: 1024 };
const ELIDED = '/state/elided';

describe('the conversation key with system messages', () => {
  it('should name the conversation by its first user message, whatever system messages follow it', () => {
    const first = request([FIRST_USER, FIRST_SYSTEM]);
    const later = request([FIRST_USER_LATER, FIRST_SYSTEM, ...turns(3), reminder('Task tools have not been used recently.'), queued('also run the tests')]);
    const alone = request([FIRST_USER]);

    const keys = [first, later, alone].map((b) => conversationKey(b, mustIndex(b), undefined, sha256, 's1'));

    expect(keys[0]).toMatch(/^[0-9a-f]{64}$/);
    expect(new Set(keys).size).toBe(1);
  });

  it('should find the user message first, not the system message, without indexing the rest', () => {
    const body = request([FIRST_USER, FIRST_SYSTEM, ...turns(2)]);
    const span = findFirstMessage(body);

    const first = mustIndex(body).messages[0]!;

    expect(first.role).toBe('user');
    expect(span).toEqual({ start: first.start, end: first.end });
    expect(conversationKeyOf(body, span!, undefined, sha256, 's1')).toBe(conversationKey(body, mustIndex(body), undefined, sha256, 's1'));
  });

  it('should keep the key when the tool list changes mid-conversation', () => {
    const before = request([FIRST_USER_LATER, FIRST_SYSTEM, ...turns(2)]);
    const after = request(
      [FIRST_USER_LATER, FIRST_SYSTEM, ...turns(2)],
      [...TOOLS, { name: 'mcp__ctxshed__restore', description: 'Restore', input_schema: { type: 'object' } }],
    );

    expect(conversationKey(after, mustIndex(after), undefined, sha256, 's1')).toBe(conversationKey(before, mustIndex(before), undefined, sha256, 's1'));
  });

  it("should show the person's prompt in ls, not the environment", () => {
    const body = request([FIRST_USER, FIRST_SYSTEM]);

    expect(firstPromptExcerpt(body, mustIndex(body))).toBe(PROMPT);
  });
});

describe('eligibility with system messages', () => {
  it('should judge "the last message" as the last turn when system messages follow it', () => {
    // Six reads; the last turn's result is followed by a reminder and queued input.
    const messages = [FIRST_USER_LATER, FIRST_SYSTEM, ...turns(6)];
    const plain = request(messages);
    const trailing = request([...messages, reminder('Task tools have not been used recently.'), queued('and the lint')]);
    const policy = { keepRecent: 0, minBytes: 1024 };

    const ordinals = (body: Uint8Array): number[] => planElision(body, mustIndex(body), policy, sha256).map((b) => b.ordinal);

    // The last turn's result (ordinal 5) stays in view either way.
    expect(ordinals(plain)).toEqual([0, 1, 2, 3, 4]);
    expect(ordinals(trailing)).toEqual([0, 1, 2, 3, 4]);
  });

  it('should count the newest tool results the same with system messages between turns', () => {
    const withReminders = request([FIRST_USER_LATER, FIRST_SYSTEM, ...turn(0), reminder('r1'), ...turn(1), ...turn(2), reminder('r2'), ...turn(3), ...turn(4)]);
    const without = request([FIRST_USER_LATER, ...turns(5)]);

    const ordinals = (body: Uint8Array): number[] => planElision(body, mustIndex(body), POLICY, sha256).map((b) => b.ordinal);

    expect(ordinals(withReminders)).toEqual([0, 1, 2]);
    expect(ordinals(withReminders)).toEqual(ordinals(without));
  });

  it('should agree with planElision (findEligible) on a body ending in system messages', () => {
    const body = request([FIRST_USER_LATER, FIRST_SYSTEM, ...turns(5), reminder('late')]);
    const index = mustIndex(body);

    const eligible = findEligible(body, index, { keepRecent: 0, minBytes: 1024 }, { elidedDir: ELIDED }, undefined, () => 0);

    expect(eligible.blocks.map((b) => b.ordinal)).toEqual(
      planElision(body, index, { keepRecent: 0, minBytes: 1024 }, sha256, { elidedDir: ELIDED }).map((b) => b.ordinal),
    );
    expect(eligible.blocks.map((b) => b.ordinal)).toEqual([0, 1, 2, 3]);
  });

  it('should never elide a tool result inside a system message', () => {
    const odd = { role: 'system', content: [{ type: 'tool_result', tool_use_id: 'toolu_x', content: filler(3000, 9) }] };
    const body = request([FIRST_USER_LATER, odd, ...turns(4)]);

    expect(planElision(body, mustIndex(body), { keepRecent: 0, minBytes: 1024 }, sha256).map((b) => b.toolUseId)).toEqual(['toolu_0', 'toolu_1', 'toolu_2']);
  });

  it('should find the last turn, and none in a body of system messages only', () => {
    expect(lastTurnIndex([{ role: 'user' }, { role: 'system' }])).toBe(0);
    expect(lastTurnIndex([{ role: 'user' }, { role: 'assistant' }])).toBe(1);
    expect(lastTurnIndex([{ role: 'system' }])).toBe(-1);
    expect(lastTurnIndex([])).toBe(-1);
  });
});

describe('the rewrite with system messages and changing tools', () => {
  it('should keep the prefix: a grown request with new system messages and tools rewrites the shared messages to the same bytes', () => {
    const early = request([FIRST_USER_LATER, FIRST_SYSTEM, ...turns(5), reminder('r1')]);
    const frozen = planElision(early, mustIndex(early), POLICY, sha256).map(freezeBlock);
    const grown = request(
      [FIRST_USER_LATER, FIRST_SYSTEM, ...turns(5), reminder('r1'), ...turn(5), queued('also the docs'), ...turn(6), reminder('r2')],
      [...TOOLS.slice(0, 2), { name: 'mcp__ctxshed__restore', description: 'Restore', input_schema: { type: 'object' } }],
    );
    const options = { elidedDir: ELIDED, sha256 };

    const a = rewriteRequest(early, frozen, options);
    const b = rewriteRequest(grown, frozen, options);

    expect(a.kind).toBe('applied');
    expect(b.kind).toBe('applied');
    // Everything up to the end of the last message both requests share is byte-identical.
    const aBody = (a as { body: Uint8Array }).body;
    const bBody = (b as { body: Uint8Array }).body;
    const shared = mustIndex(aBody).messages.at(-1)!.end;
    expect(Buffer.from(bBody.subarray(0, shared)).equals(Buffer.from(aBody.subarray(0, shared)))).toBe(true);
  });
});

describe('labels and refaults with system messages', () => {
  it("should take the person's prompt as the current task, never a system message's text", () => {
    const body = request([FIRST_USER_LATER, FIRST_SYSTEM, ...turns(2), reminder('Task tools have not been used recently.')]);

    expect(currentTask(body, mustIndex(body))).toBe(PROMPT);
  });

  it("should read the newest assistant turn's calls when system messages come after it", () => {
    const body = request([FIRST_USER_LATER, FIRST_SYSTEM, ...turns(3), reminder('r'), queued('q')]);

    expect(readNewestToolCalls(body, mustIndex(body)).map((c) => c.id)).toEqual(['toolu_2']);
  });
});
