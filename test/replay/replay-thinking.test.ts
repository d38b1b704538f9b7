/** Replay's thinking figures, and `prefixCheck` replaying a session as if its model ran the prefix check. */
import fs from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { countThinking } from '../../src/replay/count-thinking.js';
import { PrefixThinking } from '../../src/replay/prefix-thinking.js';
import { rebuildConversations } from '../../src/replay/rebuild-conversations.js';
import { BodyBuilder } from '../../src/replay/request-body.js';
import { replaySession, type ReplayOptions } from '../../src/replay/replay-session.js';
import { type ReplayOver, useReplayDirs } from './replay-dirs.js';
import { assistant, user } from './fixtures.js';

const dirs = useReplayDirs('replay-thinking');
const options = (over: ReplayOver = {}): ReplayOptions => dirs.options({ keepRecent: 2, minBytes: 1024, window: 30_000, ...over });
const thinking = (i: number) => ({ type: 'thinking', thinking: '', signature: `Sig${i}${'x'.repeat(40)}==` });

/**
 * One prompt, then a tool loop: each assistant message is a signed thinking block and a tool_use
 * (two records of one message id, as Claude Code writes them), each result `sizes[i]` bytes. Usage
 * is 2,000 tokens of system prompt and tools plus a quarter token per byte sent.
 */
function session(sizes: readonly number[]): string[] {
  const lines = [user('read every file in the folder')];
  const sent: unknown[] = [{ role: 'user', content: [{ type: 'text', text: 'read every file in the folder' }] }];
  let before = 0;
  sizes.forEach((size, i) => {
    const total = 2000 + Math.round(JSON.stringify(sent).length / 4);
    const use = { type: 'tool_use', id: `toolu_${i}`, name: 'Read', input: { file_path: `/f${i}` } };
    const usage = { input_tokens: 3, cache_read_input_tokens: before, cache_creation_input_tokens: total - before - 3 };
    lines.push(assistant(`msg_${i}`, thinking(i), usage), assistant(`msg_${i}`, use, usage));
    const result = { tool_use_id: `toolu_${i}`, type: 'tool_result', content: `${i} `.padEnd(size, 'x') };
    lines.push(user([result]));
    sent.push({ role: 'assistant', content: [thinking(i), use] }, { role: 'user', content: [result] });
    before = total;
  });
  return lines;
}
const STALE = [20_000, 20_000, 20_000, 20_000, ...Array<number>(10).fill(400)];
const replay = (over: ReplayOver = {}) => replaySession('x.jsonl', rebuildConversations(session(STALE), 'x.jsonl'), options(over));

describe('PrefixThinking', () => {
  it('should fail a thinking block once a stub before it changes since the model produced it, and keep one produced after', () => {
    // Arrange: prompt, assistant (thinking) + tool_use 0, result 0, assistant (thinking) + tool_use 1, result 1
    const a = (i: number) => ({ role: 'assistant' as const, content: [thinking(i), { type: 'tool_use', id: `t${i}`, name: 'Read', input: {} }] });
    const r = (i: number) => ({ role: 'user' as const, content: [{ type: 'tool_result', tool_use_id: `t${i}`, content: 'x' }] });
    const prompt = { role: 'user' as const, content: [{ type: 'text', text: 'go' }] };
    const check = new PrefixThinking();

    // Act: nothing stubbed, then result 0 stubbed (before the second block), then the same again
    const first = check.invalidThinking([prompt, a(0), r(0)], new Set());
    const stubbed = check.invalidThinking([prompt, a(0), r(0), a(1), r(1)], new Set(['t0']));
    const a2 = { role: 'assistant' as const, content: [thinking(2), { type: 'text', text: 'done' }] };
    const later = check.invalidThinking([prompt, a(0), r(0), a(1), r(1), a2, { role: 'user', content: [{ type: 'text', text: 'next' }] }], new Set(['t0']));

    // Assert: the first block lies before the stub and stays valid; the second was produced on the
    // unstubbed result 0 and fails; the third was produced on the stubbed prefix and is valid
    expect(first).toBe(0);
    expect(stubbed).toBe(1);
    expect(later).toBe(1);
  });
});

describe('countThinking', () => {
  it('should count thinking and redacted_thinking blocks, and never the words inside a string', () => {
    const body = new BodyBuilder().build('claude-opus-5-5', [
      { role: 'user', content: [{ type: 'text', text: 'what is "type":"thinking" anyway' }] },
      { role: 'assistant', content: [thinking(0), { type: 'redacted_thinking', data: 'Enc' }, { type: 'text', text: 'ok' }] },
    ]);

    expect(countThinking(body)).toBe(2);
    expect(countThinking(new TextEncoder().encode('{"messages":[]}'))).toBe(0);
  });
});

describe('replaySession thinking figures', () => {
  it("should build the bodies with the transcript's thinking blocks in them", () => {
    const [conversation] = rebuildConversations(session(STALE), 'x.jsonl');
    const last = conversation!.requests.at(-1)!;

    expect(countThinking(new BodyBuilder().build(last.model, last.messages))).toBe(STALE.length - 1);
  });

  it('should remove no thinking on the recorded model, which runs no prefix check', async () => {
    const report = await replay();

    expect(report.strategies.rescue.epochs).toBeGreaterThan(0);
    expect(report.strategies.rescue.thinking).toMatchObject({ removed: 0, finalRemoved: 0, finalSent: STALE.length - 1 });
    expect(report.strategies.recorded.thinking.sent).toBe(report.strategies.rescue.thinking.sent);
  });

  it('should report the thinking a rescue epoch removes when replayed as a prefix-check model', async () => {
    const report = await replay({ prefixCheck: true });
    const t = report.strategies.rescue.thinking;

    expect(report.strategies.rescue.epochs).toBeGreaterThan(0);
    expect(t.removed).toBeGreaterThan(0);
    expect(t.finalRemoved).toBeGreaterThan(0);
    expect(t.finalSent + t.finalRemoved).toBe(STALE.length - 1);
    expect(t.sent + t.removed).toBe(report.strategies.recorded.thinking.sent);
    expect(report.stateFailures).toEqual([]);
  });

  it('should count the thinking that per-request rewriting invalidates under the prefix check, and none without it', async () => {
    const checked = await replay({ prefixCheck: true });
    const unchecked = await replayAgain({});
    const t = checked.strategies.perRequest.thinking;

    expect(checked.strategies.perRequest.epochs).toBeGreaterThan(0);
    expect(t.removed).toBeGreaterThan(0);
    expect(t.sent + t.removed).toBe(checked.strategies.recorded.thinking.sent);
    expect(unchecked.strategies.perRequest.thinking.removed).toBe(0);
  });

  it('should hold shed mid_turn with latchAt prompt in a tool loop under the ceiling', async () => {
    const report = await replay({ prefixCheck: true, latchAt: 'prompt' });

    expect(report.shedHeld.requests.mid_turn).toBeGreaterThan(0);
    expect(report.strategies.rescue.thinking.removed).toBeLessThan((await replayAgain({ prefixCheck: true })).strategies.rescue.thinking.removed);
  });
});

async function replayAgain(over: ReplayOver) {
  await fs.rm(dirs.dir(), { recursive: true, force: true });
  await fs.rm(dirs.shedDir(), { recursive: true, force: true });
  await fs.mkdir(dirs.dir());
  await fs.mkdir(dirs.shedDir());
  return replay(over);
}
