/**
 * Preserved thinking end to end through the epoch engine (docs/rescue.md "Preserved thinking"):
 * conversations on the prefix-check models grown turn by turn like a client, where each assistant
 * turn is the scripted model's answer signed on the request ctxshed actually sent (as the real API
 * signs what it receives), and where readings over the threshold make epochs latch, in either
 * mode. The independent checker (src/scripted/preserved-thinking, written apart from src/core)
 * passes every request ctxshed sends, with the account default that refuses; and the number of
 * thinking blocks ctxshed keeps equals the ideal: every block of the client's request that no
 * shed span took, unless an epoch latched after the block was produced and changed something
 * before it. With the deeper cut on (docs/rescue.md "The deeper cut"), the model's answers carry
 * texts and Write inputs an epoch takes too, and a part changes just after its own block.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeepCut, EpochMode } from '../src/core/epoch-types.js';
import { latchedOf, passthroughReasonOf, engineSettingsOf, EpochEngine } from '../src/rescue/index.js';
import type { ReplyBlock } from '../src/scripted/message.js';
import { checkThinking } from '../src/scripted/preserved-thinking/check-thinking.js';
import { signReplyContent } from '../src/scripted/preserved-thinking/sign-thinking.js';
import { openStateDir } from '../src/state/open-state-dir.js';
import { checkInputFor, clientRequestOf, systemOf, thinkingConversationSpecArb, type ThinkingMessage, type ThinkingRequestBody } from './arbitraries/index.js';
import { cycleText } from './arbitraries/text.js';
import { blocksOf as frozenBlocksOf } from '../src/core/epoch-items.js';
import type { FrozenBlock } from '../src/core/epoch-types.js';
import { spanOf } from '../src/core/epoch-items.js';

const WINDOW = 20_000;
/** A reading over the gate's 85% ceiling, so that shed's burst gate gives way as rescue latches. */
const OVER = 18_000;
const UNDER = 2_000;
const FILE_WORDS = ['export', 'function', 'const', 'return', 'await', 'import', '{', '}', ';'];

type Position = readonly [message: number, block: number];
const before = (a: Position, b: Position): boolean => a[0] < b[0] || (a[0] === b[0] && a[1] < b[1]);

/** One epoch as the ideal needs it: when it latched, the first place it changed, the messages its span took. */
interface EditSeen {
  readonly latchedAt: number;
  readonly firstChange: Position;
  readonly span?: readonly [first: number, last: number];
}

function blocksOf(content: ThinkingMessage['content']): ReadonlyArray<Record<string, unknown>> {
  return typeof content === 'string' ? [] : content;
}

/** Every thinking block of the client's messages: where it is and its signature. */
function thinkingOf(messages: readonly ThinkingMessage[]): Array<{ readonly at: Position; readonly signature: string }> {
  return messages.flatMap((m, i) =>
    blocksOf(m.content).flatMap((b, j) =>
      b['type'] === 'thinking' || b['type'] === 'redacted_thinking' ? [{ at: [i, j] as const, signature: String(b['signature'] ?? b['data']) }] : [],
    ),
  );
}

/** The place of each tool_result, by ordinal. */
function toolResultsOf(messages: readonly ThinkingMessage[]): Position[] {
  return messages.flatMap((m, i) => blocksOf(m.content).flatMap((b, j) => (b['type'] === 'tool_result' ? [[i, j] as const] : [])));
}

/** The ideal count for the client's request at turn `turn`, from the edits seen so far. */
function idealKept(messages: readonly ThinkingMessage[], producedAt: ReadonlyMap<string, number>, edits: readonly EditSeen[], turn: number): number {
  return thinkingOf(messages).filter(({ at, signature }) => {
    const produced = producedAt.get(signature)!;
    for (const e of edits) {
      if (e.latchedAt > turn) continue;
      if (e.span !== undefined && at[0] >= e.span[0] && at[0] <= e.span[1]) return false;
      if (e.latchedAt > produced && before(e.firstChange, at)) return false;
    }
    return true;
  }).length;
}

function thinkingCount(body: ThinkingRequestBody): number {
  return thinkingOf(body.messages).length;
}

let root = '';
beforeAll(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'ctxshed-thinking-engine-'));
});
afterAll(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

/** The deeper cut of the third run: every part over 100 bytes. */
const DEEP: DeepCut = { parts: ['tool_input', 'assistant_text'], inputMinBytes: 100, textMinBytes: 100 };

describe.each([
  ['rescue', undefined],
  ['shed', undefined],
  ['rescue', DEEP],
] as const)('preserved thinking through the engine, %s mode (deeper cut: %o)', (mode: EpochMode, deep: DeepCut | undefined) => {
  it('should send only requests the independent checker accepts, keeping exactly the ideal thinking blocks', async () => {
    let run = 0;
    let latched = 0;
    let latchedParts = 0;
    await fc.assert(
      fc.asyncProperty(thinkingConversationSpecArb(8), fc.array(fc.boolean(), { minLength: 10, maxLength: 10 }), async (spec, overs) => {
        const state = await openStateDir(path.join(root, `${mode}-${deep === undefined ? '' : 'deep-'}${run++}`));
        // With the deeper cut, no tool result is large enough: the parts alone make each change.
        const policy = deep === undefined ? { keepRecent: 1, minBytes: 1024, deep: 'none' as const } : { keepRecent: 1, minBytes: 1_000_000, deep };
        const engine = new EpochEngine(state, engineSettingsOf({ mode, threshold: 0.5, window: WINDOW, ...policy }));
        const system = systemOf(spec);
        const kept: ThinkingMessage[] = [{ role: 'user', content: 'Read the project files and fix the bug.' }];
        const producedAt = new Map<string, number>();
        const edits: EditSeen[] = [];
        let turn = 0;
        // One request through the engine, checked; then the model's signed answer to what was sent.
        const exchange = async (answer: ReplyBlock[]): Promise<void> => {
          const client = clientRequestOf(spec.model, system, kept);
          const prepared = await engine.prepare({
            method: 'POST',
            target: '/v1/messages',
            headers: {},
            body: new TextEncoder().encode(JSON.stringify(client)),
          });
          const reason = passthroughReasonOf(prepared);
          expect(reason === undefined || reason === 'no_epoch', prepared.outcome === 'rewritten' ? '' : prepared.detail).toBe(true);
          const sent = JSON.parse(new TextDecoder().decode(prepared.body)) as ThinkingRequestBody;
          const record = prepared.conversation?.record;
          const n = latchedOf(prepared);
          if (n !== undefined && record !== undefined) {
            const epoch = record.epochs[n - 1]!;
            const results = toolResultsOf(client.messages);
            // A tool result changes its content (the thinking after it may lie in its message); a
            // part, its own block (the thinking after it in its message too).
            const changeOf = (b: FrozenBlock): Position => (b.part === undefined ? results[b.ordinal]! : [b.messageIndex!, b.blockIndex!]);
            const span = spanOf(epoch);
            const firstChange: Position =
              span !== undefined
                ? [span.first, 0]
                : frozenBlocksOf(epoch)
                    .map(changeOf)
                    .reduce((a, b) => (before(a, b) ? a : b));
            if (frozenBlocksOf(epoch).some((b) => b.part !== undefined)) latchedParts++;
            edits.push({ latchedAt: turn, firstChange, ...(span === undefined ? {} : { span: [span.first, span.last] as const }) });
            latched++;
          }
          const check = checkThinking(checkInputFor(sent));
          expect(check.outcome, `turn ${turn}`).toMatchObject({ kind: 'answer', transformations: [] });
          expect(thinkingCount(sent), `turn ${turn}`).toBe(idealKept(client.messages, producedAt, edits, turn));
          if (check.outcome.kind !== 'answer') return;
          const content = signReplyContent(sent.model, checkInputFor(sent), answer, check.outcome.seen, '') as unknown as Array<Record<string, unknown>>;
          for (const b of content) if (b['type'] === 'thinking') producedAt.set(String(b['signature']), turn);
          kept.push({ role: 'assistant', content });
          const tokens = overs[turn % overs.length] === true ? OVER : UNDER;
          engine.observe(prepared, {
            status: 200,
            usage: { inputTokens: 10, cacheCreationInputTokens: 0, cacheReadInputTokens: tokens - 10, outputTokens: 10 },
          });
          turn++;
        };
        for (const [t, bytes] of spec.toolResultBytes.entries()) {
          const id = `toolu_01${String(t).padStart(22, '0')}`;
          // With the deeper cut, the model says something and writes a file: parts an epoch takes.
          const said: ReplyBlock[] = deep === undefined ? [] : [{ type: 'text', text: cycleText(FILE_WORDS, 150 + 10 * t) }];
          const input = deep === undefined ? { file_path: `/src/file-${t}.ts` } : { file_path: `/src/file-${t}.ts`, content: cycleText(FILE_WORDS, 400 + t) };
          await exchange([...said, { type: 'tool_use', id, name: deep === undefined ? 'Read' : 'Write', input }]);
          kept.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: cycleText(FILE_WORDS, bytes) }] });
        }
        await exchange([{ type: 'text', text: spec.finalText }]);
        kept.push({ role: 'user', content: 'Thanks. Now run the tests.' });
        await exchange([{ type: 'text', text: 'Done.' }]);
        engine.close();
      }),
      { numRuns: 40 },
    );
    // The property means something only if epochs latched in some runs.
    expect(latched).toBeGreaterThan(0);
    if (deep !== undefined) expect(latchedParts).toBeGreaterThan(0);
  }, 120_000);
});
