/**
 * The test kind `assistant_text`'s apply and the conversation's frozen thinking
 * (docs/adding-a-kind.md, docs/rescue.md "Preserved thinking"): its stubs and the removal of the
 * thinking blocks its epochs froze go by the core's one pass (core/epochs/splice-applier.ts), so
 * a body on a model that runs the prefix check comes out with the old text stubbed and the
 * thinking after it gone, unless that block's file is missing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES_API } from '../../../src/core/dialects/messages.js';
import { NO_ITEMS } from '../../../src/core/epochs/frozen-items.js';
import { EPOCH_KIND_INFO } from '../../../src/core/epochs/kind-info.js';
import { indexTranscript } from '../../../src/core/messages/transcript-index.js';
import { MemoCache } from '../../../src/core/rewrite/memo-cache.js';
import { freezeThinking, planThinking } from '../../../src/core/thinking/plan-thinking.js';
import { FileAvailability } from '../../../src/rescue/file-availability.js';
import type { ApplyDeps } from '../../../src/rescue/kind-apply.js';
import { registerKind } from '../../../src/rescue/latch-kinds.js';
import { sha256Hex } from '../../../src/state/sha256-hex.js';
import { writeOriginals } from '../../../src/state/write-originals.js';
import { useStateDir } from '../../state/fixtures/state-fixtures.js';
import { validateMessagesRequest } from '../../support/messages-validator.js';
import { type FrozenText, stubOf } from './assistant-text/frozen-text.js';
import { ASSISTANT_TEXT_INFO, ASSISTANT_TEXT_KIND } from './assistant-text/kind-record.js';

const ENCODER = new TextEncoder();
const THINKING = { type: 'thinking', thinking: '', signature: `Sig${'x'.repeat(48)}==` };

/**
 * A conversation on a model that runs the prefix check: an old assistant text in a message
 * without thinking (message 1), then an assistant message with thinking and text (message 3).
 */
const MESSAGES = [
  { role: 'user', content: 'question 0: what does the parser do?' },
  { role: 'assistant', content: [{ type: 'text', text: `The parser reads the input, ${'and explains it at some length '.repeat(4)}then stops.` }] },
  { role: 'user', content: 'question 1: and the printer?' },
  { role: 'assistant', content: [THINKING, { type: 'text', text: 'The printer writes it back.' }] },
  { role: 'user', content: 'question 2: anything else?' },
  { role: 'assistant', content: [{ type: 'text', text: 'Nothing else.' }] },
  { role: 'user', content: 'question 3: thanks' },
];
const BODY = ENCODER.encode(JSON.stringify({ model: 'claude-opus-5-5', max_tokens: 100, messages: MESSAGES }));

const stateDir = useStateDir();
let unregister: () => void;
beforeAll(() => {
  unregister = registerKind(ASSISTANT_TEXT_KIND);
});
afterAll(() => unregister());

/** The frozen text of message 1 and the thinking block its epoch froze after it, each with its file written when `written` says so. */
async function frozenAndDeps(written: { readonly thinking: boolean }) {
  const indexed = indexTranscript(BODY);
  if (indexed.kind !== 'indexed') throw new Error('the body must index');
  const { index } = indexed;
  const block = index.messages[1]!.blocks[0]!;
  const textBytes = BODY.slice(block.start, block.end);
  const text: FrozenText = { messageIndex: 1, blockIndex: 0, sha256: sha256Hex(textBytes), bytes: textBytes.length };
  const plan = planThinking(BODY, index, ASSISTANT_TEXT_INFO.changesAt!(text, index)!, [], sha256Hex);
  if (plan.kind !== 'planned' || plan.thinking.length !== 1) throw new Error('expected the thinking block of message 3 planned');
  const [planned] = plan.thinking;
  const { state } = stateDir;
  await writeOriginals(
    state,
    [
      { folder: ASSISTANT_TEXT_INFO.originals, sha256: text.sha256, ext: 'json', bytes: textBytes },
      ...(written.thinking ? [{ folder: EPOCH_KIND_INFO.thinking_only.originals, sha256: planned!.sha256, ext: 'json' as const, bytes: planned!.bytes }] : []),
    ],
    [],
  );
  const thinking = freezeThinking(planned!);
  const files = new FileAvailability(state);
  await files.checkItems(ASSISTANT_TEXT_INFO, [text]);
  await files.checkItems(EPOCH_KIND_INFO.thinking_only, [thinking]);
  const deps: ApplyDeps = { state, files, memos: new MemoCache(), stubs: { elidedDir: state.elidedDir, spansDir: state.spansDir } };
  const snap = { ...NO_ITEMS, [ASSISTANT_TEXT_INFO.tag]: [text], thinking_only: [thinking] };
  const ask = { body: BODY, indexed: { outcome: indexed }, api: MESSAGES_API, key: 'k', nowMs: 0 };
  return { text, thinking, deps, snap, ask };
}

type Message = { content: unknown };
const messagesOf = (body: Uint8Array): Message[] => (JSON.parse(new TextDecoder().decode(body)) as { messages: Message[] }).messages;

describe("the test kind's apply and the conversation's frozen thinking", () => {
  it('should stub the old text and remove the frozen thinking block by the same pass, the body valid', async () => {
    // Arrange
    const { text, deps, snap, ask } = await frozenAndDeps({ thinking: true });

    // Act
    const { outcome } = ASSISTANT_TEXT_KIND.apply(deps, ask, snap);

    // Assert
    expect(outcome).toMatchObject({ kind: 'applied', stubs: 1, thinkingRemoved: 1, thinkingSkipped: [] });
    const out = messagesOf(outcome.body);
    expect(out[1]!.content).toEqual([JSON.parse(new TextDecoder().decode(stubOf(text)))]);
    expect(out[3]!.content).toEqual([MESSAGES[3]!.content[1]]);
    expect(out.filter((_m, i) => i !== 1 && i !== 3)).toEqual(MESSAGES.filter((_m, i) => i !== 1 && i !== 3));
    expect(validateMessagesRequest(outcome.body)).toEqual([]);
  });

  it('should leave the thinking block when its file is missing, and still stub the text', async () => {
    // Arrange
    const { text, thinking, deps, snap, ask } = await frozenAndDeps({ thinking: false });

    // Act
    const { outcome } = ASSISTANT_TEXT_KIND.apply(deps, ask, snap);

    // Assert
    expect(outcome).toMatchObject({
      kind: 'applied',
      stubs: 1,
      thinkingRemoved: 0,
      thinkingSkipped: [{ ordinal: thinking.ordinal, reason: 'thinking_file_missing' }],
    });
    const out = messagesOf(outcome.body);
    expect(out[1]!.content).toEqual([JSON.parse(new TextDecoder().decode(stubOf(text)))]);
    expect(out[3]!.content).toEqual(MESSAGES[3]!.content);
    expect(validateMessagesRequest(outcome.body)).toEqual([]);
  });
});
