/**
 * Preserved thinking, the checker itself: every request of a conversation grown like a client
 * (thinking signed by the scripted model, the breakpoint moving as Claude Code moves it) passes;
 * an edited earlier tool_result and a gap in the middle are refused with the documented 400 at the
 * first block they invalidate; removing thinking from the start, the end, or all of it passes;
 * and under drop_block the blocks the checker keeps are exactly those the history-based ideal
 * keeper (arbitraries/thinking-ideal.ts) says a perfect proxy could keep.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { contentBlocks, isThinkingBlock } from '../src/scripted/preserved-thinking/canonical-prefix.js';
import { checkThinking, prefixMismatchMessage } from '../src/scripted/preserved-thinking/check-thinking.js';
import { checkInputFor, idealKeptBlocks, thinkingConversationArb, type ThinkingMessage, type ThinkingRequestBody } from './arbitraries/index.js';

const DROP = { requested: 'drop_block', hasBlockBinding: true, betaHeader: true } as const;

/** The paths of the thinking blocks of a body, in order. */
function thinkingPaths(body: ThinkingRequestBody): string[] {
  return body.messages.flatMap((m, i) => contentBlocks(m.content).flatMap((b, j) => (isThinkingBlock(b) ? [`messages.${i}.content.${j}`] : [])));
}

/** The signatures the checker keeps under drop_block. */
function checkerKeeps(body: ThinkingRequestBody): string[] {
  return checkThinking(checkInputFor(body, DROP))
    .verdicts.filter((v) => v.verdict === 'valid')
    .map((v) => v.signature);
}

/** The last request with `edit` applied to a copy of its messages. */
function editLast(requests: readonly ThinkingRequestBody[], edit: (messages: ThinkingMessage[]) => void): ThinkingRequestBody[] {
  const last = requests[requests.length - 1]!;
  const messages = JSON.parse(JSON.stringify(last.messages)) as ThinkingMessage[];
  edit(messages);
  return [...requests.slice(0, -1), { ...last, messages }];
}

/** Removes the `n`-th thinking block (in request order) from `messages`. */
function removeThinking(messages: ThinkingMessage[], n: number): void {
  let seen = 0;
  for (const m of messages) {
    if (!Array.isArray(m.content)) continue;
    const at = (m.content as Array<Record<string, unknown>>).findIndex((b) => isThinkingBlock(b) && seen++ === n);
    if (at !== -1) {
      (m as { content: unknown }).content = (m.content as unknown[]).filter((_, i) => i !== at);
      return;
    }
  }
}

function idealOfLast(sent: readonly ThinkingRequestBody[]): string[] {
  return idealKeptBlocks(sent)
    .at(-1)!
    .map((b) => b.signature);
}

describe('preserved thinking (checker)', () => {
  it('should pass every request of an unmodified conversation, and the ideal keeper keeps every block', () => {
    fc.assert(
      fc.property(thinkingConversationArb(), (requests) => {
        const ideal = idealKeptBlocks(requests);
        requests.forEach((body, k) => {
          const check = checkThinking(checkInputFor(body));
          expect(check.outcome).toMatchObject({ kind: 'answer', transformations: [] });
          expect(check.verdicts.map((v) => v.verdict)).toEqual(thinkingPaths(body).map(() => 'valid'));
          expect(ideal[k]!.length).toBe(thinkingPaths(body).length);
        });
        expect(thinkingPaths(requests.at(-1)!).length).toBe(requests.length - 1);
      }),
    );
  });

  it('should refuse an edited earlier tool_result at the first block after it, and drop exactly what the ideal keeper drops', () => {
    const edits = fc.constantFrom(
      (t: string) => t.slice(0, t.length >> 1),
      () => '[Old tool result content cleared]',
      (t: string) => `${t}\n(truncated)`,
    );
    fc.assert(
      fc.property(thinkingConversationArb(), fc.nat(), edits, (requests, pick, edit) => {
        const turns = requests.length - 2;
        const at = 2 + 2 * (pick % turns);
        const sent = editLast(requests, (messages) => {
          const result = (messages[at]!.content as Array<Record<string, unknown>>)[0]!;
          result['content'] = edit(String(result['content']));
        });
        const last = sent.at(-1)!;
        expect(checkThinking(checkInputFor(last)).outcome).toEqual({ kind: 'refuse', message: prefixMismatchMessage(`messages.${at + 1}.content.0`, false) });
        expect(checkerKeeps(last)).toEqual(idealOfLast(sent));
        expect(idealOfLast(sent).length).toBe(at / 2);
      }),
    );
  });

  it('should refuse a gap in the middle at the block after it', () => {
    fc.assert(
      fc.property(
        thinkingConversationArb().filter((r) => r.length >= 4),
        fc.nat(),
        (requests, pick) => {
          const count = thinkingPaths(requests.at(-1)!).length;
          const n = 1 + (pick % (count - 2));
          const sent = editLast(requests, (messages) => removeThinking(messages, n));
          const last = sent.at(-1)!;
          const expected = thinkingPaths(last)[n]!;
          expect(checkThinking(checkInputFor(last)).outcome).toEqual({ kind: 'refuse', message: prefixMismatchMessage(expected, false) });
          expect(checkerKeeps(last)).toEqual(idealOfLast(sent));
        },
      ),
    );
  });

  it('should accept thinking removed from the start, from the end, or all of it', () => {
    fc.assert(
      fc.property(thinkingConversationArb(), fc.nat(), fc.nat(), (requests, x, y) => {
        const count = thinkingPaths(requests.at(-1)!).length;
        const [from, to] = [x % (count + 1), y % (count + 1)].sort((a, b) => a - b) as [number, number];
        const sent = editLast(requests, (messages) => {
          // Remove from the end first so the indexes of the earlier blocks stay put.
          for (let n = count - 1; n >= to; n--) removeThinking(messages, n);
          for (let n = from - 1; n >= 0; n--) removeThinking(messages, n);
        });
        const last = sent.at(-1)!;
        const check = checkThinking(checkInputFor(last));
        expect(check.outcome).toMatchObject({ kind: 'answer', transformations: [] });
        expect(check.verdicts.length).toBe(to - from);
        expect(checkerKeeps(last)).toEqual(idealOfLast(sent));
      }),
    );
  });
});
