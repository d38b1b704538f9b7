import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { markLastMessage } from '../../src/scripted/breakpoint.js';
import type { ReplyBlock } from '../../src/scripted/message.js';
import { canonicalPrefix, canonicalText } from '../../src/scripted/preserved-thinking/canonical-prefix.js';
import { checkThinking, prefixMismatchMessage, type CheckInput } from '../../src/scripted/preserved-thinking/check-thinking.js';
import { canRead, isPrefixCheckModel } from '../../src/scripted/preserved-thinking/models.js';
import { signReplyContent } from '../../src/scripted/preserved-thinking/sign-thinking.js';
import { parseSignature } from '../../src/scripted/preserved-thinking/signature.js';

type Msg = { role: string; content: unknown };
const FABLE = 'claude-fable-5-1';
const OPUS = 'claude-opus-5-5';
const SYSTEM = [{ type: 'text', text: 'You are a coding agent.', cache_control: { type: 'ephemeral' } }];
const TOOLS = [{ name: 'Read', description: 'Read a file', input_schema: { type: 'object', properties: { file_path: { type: 'string' } } } }];

/** The request as a client sends `messages`: the last one carries the moving breakpoint. */
function sent(messages: readonly Msg[]): Msg[] {
  return messages.map((m, i) => (i === messages.length - 1 ? markLastMessage(m).last : m));
}

function input(messages: readonly Msg[], extra: Partial<CheckInput> = {}): CheckInput {
  return {
    model: FABLE,
    system: SYSTEM,
    tools: TOOLS,
    messages: sent(messages),
    requested: undefined,
    hasBlockBinding: false,
    betaHeader: false,
    accountDefault: 'error',
    ...extra,
  };
}

/** The model's answer to `req`: `blocks` after a signed thinking block. */
function answer(req: CheckInput, blocks: ReplyBlock[]): Msg {
  const { outcome } = checkThinking(req);
  if (outcome.kind !== 'answer') throw new Error(`refused: ${outcome.message}`);
  return { role: 'assistant', content: signReplyContent(req.model, req, blocks, outcome.seen, '') };
}

/** A conversation of `turns` tool calls grown like a client, as the client keeps it (no breakpoint). */
function grow(turns: number, model = FABLE): Msg[] {
  const messages: Msg[] = [{ role: 'user', content: 'Read the files.' }];
  for (let t = 0; t < turns; t++) {
    const id = `toolu_${t}`;
    messages.push(answer(input(messages, { model }), [{ type: 'tool_use', id, name: 'Read', input: { file_path: `/f${t}` } }]));
    messages.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: `file ${t} `.repeat(50) }] });
  }
  return messages;
}

const verdictsOf = (req: CheckInput): string[] => checkThinking(req).verdicts.map((v) => `${v.path}=${v.verdict}`);
const clone = (m: Msg[]): Msg[] => JSON.parse(JSON.stringify(m)) as Msg[];
const blocksOf = (m: Msg): Array<Record<string, unknown>> => m.content as Array<Record<string, unknown>>;

describe('checkThinking', () => {
  it('should pass every block of an unmodified conversation, the breakpoint moving as Claude Code moves it', () => {
    const messages = grow(4);
    const check = checkThinking(input(messages));
    expect(check.verdicts.map((v) => v.verdict)).toEqual(['valid', 'valid', 'valid', 'valid']);
    expect(check.outcome).toMatchObject({ kind: 'answer', transformations: [] });
  });

  it('should not count key order, formatting, cache_control or string-versus-lone-text-block content as a change', () => {
    const messages = grow(2);
    const reordered = JSON.parse(
      JSON.stringify(clone(messages), null, 2).replace(/"role": "user",\n(\s+)"content": "Read the files."/, '"content": "Read the files.",\n$1"role": "user"'),
    ) as Msg[];
    reordered[0] = { role: 'user', content: [{ type: 'text', text: 'Read the files.', cache_control: { type: 'ephemeral', ttl: '1h' } }] };
    const system = [{ text: 'You are a coding agent.', type: 'text' }];
    expect(verdictsOf(input(reordered, { system }))).toEqual(['messages.1.content.0=valid', 'messages.3.content.0=valid']);
  });

  it('should fail every block after an edited earlier tool_result, and refuse with the documented message', () => {
    const messages = grow(3);
    blocksOf(messages[2]!)[0]!['content'] = 'file 0 (shortened)';
    const req = input(messages);
    expect(verdictsOf(req)).toEqual(['messages.1.content.0=valid', 'messages.3.content.0=prefix_mismatch', 'messages.5.content.0=prefix_mismatch']);
    expect(checkThinking(req).outcome).toEqual({ kind: 'refuse', message: prefixMismatchMessage('messages.3.content.0', false) });
    expect(prefixMismatchMessage('messages.3.content.0', true)).toBe(
      'messages.3.content.0: Invalid `signature` in `thinking` block. The block is bound to a different conversation. Remove the block, or set `thinking.block_binding.prefix_mismatch_behavior` to "drop_block".',
    );
    expect(prefixMismatchMessage('messages.3.content.0', false)).toMatch(
      /"drop_block"\. That setting requires the `thinking-binding-controls-2026-08-01` value in the `anthropic-beta` header\.$/,
    );
  });

  it('should drop the failing blocks under drop_block and list them in input_transformations', () => {
    const messages = grow(3);
    blocksOf(messages[4]!)[0]!['content'] = 'edited';
    const check = checkThinking(input(messages, { requested: 'drop_block', hasBlockBinding: true, betaHeader: true }));
    expect(check.outcome).toMatchObject({
      kind: 'answer',
      transformations: [{ type: 'thinking_dropped', path: 'messages.5.content.0', reason: 'prefix_binding_mismatch' }],
    });
  });

  it('should fail every block when system or tools change, and when a text block is added to an earlier user turn', () => {
    const messages = grow(2);
    const all = ['messages.1.content.0=prefix_mismatch', 'messages.3.content.0=prefix_mismatch'];
    expect(verdictsOf(input(messages, { system: [{ type: 'text', text: 'Today is Tuesday.' }] }))).toEqual(all);
    expect(verdictsOf(input(messages, { tools: [...TOOLS, { name: 'Write', input_schema: { type: 'object' } }] }))).toEqual(all);
    expect(verdictsOf(input(messages, { tools: [{ ...TOOLS[0]!, description: 'Read one file' }] }))).toEqual(all);
    const added = clone(messages);
    added[0] = {
      role: 'user',
      content: [
        { type: 'text', text: 'Read the files.' },
        { type: 'text', text: '<reminder/>' },
      ],
    };
    expect(verdictsOf(input(added))).toEqual(all);
  });

  it('should ignore a deferred tool no tool_addition names yet', () => {
    const messages = grow(2);
    const tools = [...TOOLS, { name: 'deploy', defer_loading: true, input_schema: { type: 'object' } }];
    expect(verdictsOf(input(messages, { tools }))).toEqual(['messages.1.content.0=valid', 'messages.3.content.0=valid']);
  });

  it('should accept thinking removed from the start, from the end, or all of it', () => {
    const messages = grow(3);
    const without = (indexes: number[]): Msg[] =>
      clone(messages).map((m, i) => (indexes.includes(i) ? { ...m, content: blocksOf(m).filter((b) => b['type'] !== 'thinking') } : m));
    expect(checkThinking(input(without([1]))).verdicts.map((v) => v.verdict)).toEqual(['valid', 'valid']);
    expect(checkThinking(input(without([1, 3]))).verdicts.map((v) => v.verdict)).toEqual(['valid']);
    expect(checkThinking(input(without([5]))).verdicts.map((v) => v.verdict)).toEqual(['valid', 'valid']);
    expect(checkThinking(input(without([1, 3, 5]))).outcome).toMatchObject({ kind: 'answer', transformations: [] });
  });

  it('should fail the blocks after a gap in the middle, and the blocks made while a removed block was gone once it is back', () => {
    const messages = grow(3);
    const gap = clone(messages);
    gap[3] = { ...gap[3]!, content: blocksOf(gap[3]!).filter((b) => b['type'] !== 'thinking') };
    expect(checkThinking(input(gap)).verdicts.map((v) => v.verdict)).toEqual(['valid', 'prefix_mismatch']);
    // Remove the first block, go on a turn, then put it back.
    const trimmed = clone(messages);
    const first = blocksOf(trimmed[1]!)[0]!;
    trimmed[1] = { ...trimmed[1]!, content: blocksOf(trimmed[1]!).slice(1) };
    trimmed.push(answer(input(trimmed), [{ type: 'text', text: 'done' }]));
    trimmed.push({ role: 'user', content: 'thanks' });
    expect(checkThinking(input(trimmed)).verdicts.map((v) => v.verdict)).toEqual(['valid', 'valid', 'valid']);
    trimmed[1] = { ...trimmed[1]!, content: [first, ...blocksOf(trimmed[1]!)] };
    expect(checkThinking(input(trimmed)).verdicts.map((v) => v.verdict)).toEqual(['valid', 'valid', 'valid', 'prefix_mismatch']);
  });

  it('should keep a block made after the stale ones were dropped valid while they stay in the history', () => {
    const messages = grow(2);
    blocksOf(messages[2]!)[0]!['content'] = 'edited';
    const drop = { requested: 'drop_block', hasBlockBinding: true, betaHeader: true } as const;
    messages.push(answer(input(messages, drop), [{ type: 'text', text: 'done' }]));
    messages.push({ role: 'user', content: 'next' });
    expect(checkThinking(input(messages, drop)).verdicts.map((v) => v.verdict)).toEqual(['valid', 'prefix_mismatch', 'valid']);
  });

  it('should drop a block the current model cannot read without an error, and keep one it can', () => {
    const messages = grow(2, FABLE);
    const check = checkThinking(input(messages, { model: OPUS }));
    expect(check.outcome).toMatchObject({
      kind: 'answer',
      transformations: [
        { type: 'thinking_dropped', path: 'messages.1.content.0', reason: 'model_binding_mismatch' },
        { type: 'thinking_dropped', path: 'messages.3.content.0', reason: 'model_binding_mismatch' },
      ],
    });
    expect(checkThinking(input(grow(2, OPUS), { model: FABLE })).verdicts.map((v) => v.verdict)).toEqual(['valid', 'valid']);
  });

  it('should refuse block_binding without the beta header, and an unknown behavior', () => {
    const messages = grow(1);
    expect(checkThinking(input(messages, { requested: 'drop_block', hasBlockBinding: true })).outcome).toEqual({
      kind: 'refuse',
      message: 'thinking.block_binding: Extra inputs are not permitted',
    });
    expect(checkThinking(input(messages, { requested: 'ignore', hasBlockBinding: true, betaHeader: true })).outcome.kind).toBe('refuse');
  });

  it('should let failing blocks through on an allow account, flagged as thinking_mismatch_allowed', () => {
    const messages = grow(2);
    const check = checkThinking(input(messages, { accountDefault: 'allow', system: 'changed' }));
    expect(check.outcome).toMatchObject({
      kind: 'answer',
      behavior: 'allow',
      transformations: [
        { type: 'thinking_mismatch_allowed', path: 'messages.1.content.0' },
        { type: 'thinking_mismatch_allowed', path: 'messages.3.content.0' },
      ],
    });
    // Setting a behavior opts the request into enforcement.
    expect(
      checkThinking(input(messages, { accountDefault: 'allow', system: 'changed', requested: 'error', hasBlockBinding: true, betaHeader: true })).outcome.kind,
    ).toBe('refuse');
  });

  it('should refuse a signature it did not write whatever the behavior', () => {
    const messages = grow(2);
    blocksOf(messages[3]!)[0]!['signature'] = 'EuYBCkQYAiJA';
    const check = checkThinking(input(messages, { requested: 'drop_block', hasBlockBinding: true, betaHeader: true }));
    expect(check.outcome).toEqual({ kind: 'refuse', message: 'messages.3.content.0: Invalid `signature` in `thinking` block' });
  });
});

describe('signReplyContent', () => {
  it('should put one signed empty thinking block first, bound to the model and the prefix', () => {
    const req = input([{ role: 'user', content: 'hi' }]);
    const content = signReplyContent(FABLE, req, [{ type: 'text', text: 'hello' }], [], '');
    expect(content[0]).toMatchObject({ type: 'thinking', thinking: '' });
    const facts = parseSignature((content[0] as { signature: string }).signature);
    expect(facts).toMatchObject({ model: FABLE, previous: 'none', root: 1 });
    expect(content[1]).toEqual({ type: 'text', text: 'hello' });
  });
});

describe('canonicalPrefix', () => {
  it('should leave thinking blocks and cache_control out and keep everything else', () => {
    const text = canonicalText(
      canonicalPrefix(
        {
          system: 'S',
          messages: [
            { role: 'user', content: [{ type: 'text', text: 'P', cache_control: { type: 'ephemeral' } }] },
            {
              role: 'assistant',
              content: [
                { type: 'thinking', thinking: '', signature: 'x' },
                { type: 'text', text: 'a' },
              ],
            },
          ],
        },
        { message: 1, block: 2 },
      ),
    );
    expect(text).toBe(
      '{"messages":[{"content":[{"text":"P","type":"text"}],"role":"user"},{"content":[{"text":"a","type":"text"}],"role":"assistant"}],"system":[{"text":"S","type":"text"}],"tools":null}',
    );
  });
});

describe('canRead', () => {
  it('should follow the documented model switches', () => {
    expect(isPrefixCheckModel('claude-haiku-5-5')).toBe(true);
    expect(isPrefixCheckModel('claude-opus-5')).toBe(false);
    expect(canRead('claude-fable-5-1', 'claude-opus-5-5')).toBe(true);
    expect(canRead('claude-opus-5-5', 'claude-fable-5-1')).toBe(false);
    expect(canRead('claude-opus-5-5', 'claude-opus-5')).toBe(true);
    expect(canRead('claude-opus-5', 'claude-fable-5-1')).toBe(false);
    expect(canRead('claude-mythos-5-1', 'claude-fable-5-1')).toBe(true);
  });
});

describe('preserved-thinking rules', () => {
  it('should import nothing from src/core, so the checker stays independent of the proxy it judges', () => {
    const dir = path.join(import.meta.dirname, '../../src/scripted/preserved-thinking');
    const imports = fs.readdirSync(dir).flatMap((f) => [...fs.readFileSync(path.join(dir, f), 'utf8').matchAll(/from '([^']+)'/g)].map((m) => m[1]!));
    expect(imports.length).toBeGreaterThan(0);
    expect(imports.filter((i) => i.includes('core'))).toEqual([]);
  });
});
