import { describe, expect, it } from 'vitest';
import { indexResponses } from '../../src/core/openai/responses-index.js';
import { indexTranscript } from '../../src/core/messages/transcript-index.js';
import { MESSAGES_API } from '../../src/core/dialects/messages.js';
import { RESPONSES_API } from '../../src/core/dialects/responses.js';
import type { ConversationRecord, FrozenBlock } from '../../src/core/epoch-types.js';
import type { ConversationEntry } from '../../src/rescue/conversation-table.js';
import { countRefaults } from '../../src/rescue/count-refaults.js';
import { blocksOf } from '../../src/core/epoch-items.js';
// The kinds' registry names the folders whose files are stored texts (core/stored-files.ts); the core's entry loads it.
import '../../src/core/epochs/kind-info.js';

const SHA = 'c'.repeat(64);
const BLOCK: FrozenBlock = { ordinal: 2, toolUseId: 'toolu_2', bytes: 2000, sha256: SHA, jsonBytes: 2002, jsonSha256: 'f'.repeat(64) };
const RECORD: ConversationRecord = {
  format: 'ctxshed.conversation/2',
  key: 'k'.repeat(64),
  agentId: null,
  firstPrompt: 'go',
  model: 'm',
  createdAt: '2026-01-01T00:00:00.000Z',
  epochs: [
    {
      n: 1,
      latchedAt: '2026-01-01T00:00:00.000Z',
      trigger: 'threshold',
      reason: { fullness: 0.8, threshold: 0.7, window: 1000, contextTokens: 800 },
      policy: { name: 'p', version: 2, keepRecent: 6, minBytes: 1024 },
      kind: 'tool_results',
      items: { tool_results: [BLOCK] },
    },
  ],
};

function entry(record: ConversationRecord | undefined): ConversationEntry {
  return {
    key: RECORD.key,
    record,
    items: { tool_results: record?.epochs.flatMap((e) => blocksOf(e)) ?? [], span: [], thinking_only: [] },
    kind: record === undefined ? undefined : 'tool_results',
    reading: undefined,
    latching: Promise.resolve(),
    fileStamp: '',
    refaulted: new Set(),
  };
}

function bodyReading(id: string, path: string): { body: Uint8Array; index: ReturnType<typeof mustIndex> } {
  const body = new TextEncoder().encode(
    JSON.stringify({
      messages: [
        { role: 'user', content: 'go' },
        { role: 'assistant', content: [{ type: 'tool_use', id, name: 'Read', input: { file_path: path } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: 'text' }] },
      ],
    }),
  );
  return { body, index: mustIndex(body) };
}

function mustIndex(body: Uint8Array) {
  const outcome = indexTranscript(body);
  if (outcome.kind !== 'indexed') throw new Error(outcome.detail);
  return outcome.index;
}

describe('countRefaults', () => {
  it('should count a read-back once per call, however often the request is sent', () => {
    const conversation = entry(RECORD);
    const { body, index } = bodyReading('toolu_9', `/st/elided/${SHA}.txt`);

    const first = countRefaults(conversation, body, index, MESSAGES_API);
    const again = countRefaults(conversation, body, index, MESSAGES_API);

    expect(first).toEqual([{ toolUseId: 'toolu_9', epoch: 1, ordinal: 2, sha256: SHA, via: 'read' }]);
    expect(again).toEqual([]);
    expect([...conversation.refaulted]).toEqual(['toolu_9']);
  });

  it('should count nothing for a conversation without epochs', () => {
    const { body, index } = bodyReading('toolu_9', `/st/elided/${SHA}.txt`);

    expect(countRefaults(entry(undefined), body, index, MESSAGES_API)).toEqual([]);
  });

  it("should count a Codex shell call that names an elided block, once, across the turn's later requests", () => {
    const conversation = entry(RECORD);
    const call = { type: 'function_call', call_id: 'call_7', name: 'exec_command', arguments: JSON.stringify({ cmd: `cat /st/elided/${SHA}.txt` }) };
    const input = [{ type: 'message', role: 'user', content: 'go' }, call, { type: 'function_call_output', call_id: 'call_7', output: 'text' }];
    const body = new TextEncoder().encode(JSON.stringify({ model: 'm', input }));
    const later = new TextEncoder().encode(
      JSON.stringify({ model: 'm', input: [...input, { type: 'function_call', call_id: 'call_8', name: 'exec_command', arguments: '{"cmd":"ls"}' }] }),
    );
    const indexOf = (b: Uint8Array) => {
      const outcome = indexResponses(b);
      if (outcome.kind !== 'indexed') throw new Error(outcome.detail);
      return outcome.index;
    };

    const first = countRefaults(conversation, body, indexOf(body), RESPONSES_API);
    const next = countRefaults(conversation, later, indexOf(later), RESPONSES_API);

    expect(first).toEqual([{ toolUseId: 'call_7', epoch: 1, ordinal: 2, sha256: SHA, via: 'shell' }]);
    expect(next).toEqual([]);
  });
});
