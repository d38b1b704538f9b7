import { describe, expect, it } from 'vitest';
import { decideBurst } from '../../src/core/break-even.js';
import type { ConversationRecord, Epoch } from '../../src/core/epoch-types.js';
import type { FullnessReading } from '../../src/core/fullness-reading.js';
import type { LatchHold } from '../../src/core/decide/hold-reasons.js';
import type { ConversationEntry, Prepared } from '../../src/rescue/index.js';
import type { PricedRequest } from '../../src/replay/prompt-cache.js';
import type { ApiMessage, RebuiltRequest } from '../../src/replay/rebuild-conversations.js';
import { BodyBuilder } from '../../src/replay/request-body.js';
import { ShedAccount, type ShedStep } from '../../src/replay/shed-account.js';

/** A prompt, then one Read per size answered with a result of that many bytes, then a last answer. */
const messages: ApiMessage[] = [{ role: 'user', content: [{ type: 'text', text: 'read them all' }] }];
[60_000, 60_000, 500, 500, 500, 500, 500, 500].forEach((size, i) => {
  messages.push({ role: 'assistant', content: [{ type: 'tool_use', id: `toolu_${i}`, name: 'Read', input: { file_path: `/f${i}` } }] });
  messages.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: `toolu_${i}`, content: 'x'.repeat(size) }] });
});
messages.push({ role: 'assistant', content: [{ type: 'text', text: 'done' }] });
const body = new BodyBuilder().build('claude-opus-4-6', messages);
const request: RebuiltRequest = {
  id: 'msg_9',
  messages,
  model: 'claude-opus-4-6',
  timeMs: 0,
  sentMs: 0,
  blocks: 18,
  usage: { input: 3, cacheRead: 40_000, cacheWrite: 500, cacheWrite1h: 0, output: 10 },
};
const priced = (cacheWriteTokens: number): PricedRequest => ({
  contextTokens: 40_000,
  cacheReadTokens: 0,
  cacheWriteTokens,
  uncachedTokens: 3,
  outputTokens: 10,
  costUsd: 0,
  priced: true,
});
const reading: FullnessReading = { contextTokens: 80_000, window: 100_000, epochsApplied: 0, requestBytes: 320_000 };
const span = { first: 1, last: 4, sha256: 'cd'.repeat(32), bytes: 120_400, pins: [] };
const epoch: Epoch = {
  n: 1,
  latchedAt: '2026-02-10T23:00:00.000Z',
  kind: 'span',
  trigger: 'threshold',
  reason: { fullness: 0.8, threshold: 0.7, window: 100_000, contextTokens: 80_000 },
  policy: { name: 'shed-stale-middle', version: 1, keepRecent: 6, minBytes: 0, keepPersonTurns: 2 },
  items: { span: [span] },
};

/** The engine's hold when the gate held: no turns left to pay a re-write back. */
const GATE_HOLD: LatchHold = {
  reason: 'gate',
  detail: 'the re-write pays back never, 0 expected',
  gate: decideBurst({ invalidatedSuffixTokens: 500, droppedCachedTokens: 30_000, turnsSoFar: 9, oneHourCache: false, horizon: 0, fullness: 0.8 }),
  spanBytes: 120_400,
  windowBytes: 3_000,
};

/** The engine's answer for the request: latched (a span and a smaller body) or not, with the hold it gave. */
function prepared(latched: boolean, hold?: LatchHold): Prepared {
  const record = { epochs: latched ? [epoch] : [] } as unknown as ConversationRecord;
  const conversation = {
    key: 'k',
    record,
    items: { tool_results: [], thinking_only: [], span: latched ? [span] : [] },
    kind: 'span',
    reading,
    latching: Promise.resolve(),
    fileStamp: '',
    refaulted: new Set(),
  } as ConversationEntry;
  const base = { route: 'messages' as const, window: 100_000, agentId: undefined, conversation };
  if (latched)
    return {
      ...base,
      outcome: 'rewritten',
      body: body.subarray(0, body.length - 120_000),
      epochs: 1,
      latched: 1,
      rescued: 1,
      bytesElided: span.bytes,
      skipped: [],
    };
  const unchanged = { ...base, body, epochs: 0, reason: 'no_epoch' as const, detail: 'no epoch yet' };
  return hold === undefined ? { ...unchanged, outcome: 'passthrough' } : { ...unchanged, outcome: 'held', hold };
}

const step = (over: Partial<ShedStep>): ShedStep => ({
  conversation: 'x.jsonl#1',
  requests: 12,
  n: 9,
  request,
  body,
  prepared: prepared(true),
  priced: priced(3500),
  recorded: priced(500),
  ttl: '5m',
  tokensPerByte: 0.25,
  priceModel: request.model,
  mainIndex: 9,
  ...over,
});

describe('ShedAccount', () => {
  it('should make one figure of a latch, warm from the recorded read, with the re-write over the recorded write', () => {
    // Arrange
    const account = new ShedAccount();

    // Act
    const saved = account.afterSend(step({}));

    // Assert
    expect(saved).toBe(120_000);
    expect(account.epochs).toHaveLength(1);
    expect(account.epochs[0]).toMatchObject({ epoch: 1, request: 9, mainIndex: 9, turnsAfter: 2, span: { first: 1, last: 4, messages: 4 } });
    expect(account.epochs[0]?.perLaterTurn).toMatchObject({ shedTokens: 30_000, warmTokens: 30_000, basis: 'cache_read_marginal' });
    expect(account.epochs[0]?.rewrite.cacheWriteTokens).toBe(3000);
    expect(account.held()).toEqual({ requests: {} });
  });

  it('should count the shed tool results, and a later Read of one of their files', () => {
    // Arrange
    const account = new ShedAccount();
    account.afterSend(step({}));
    const reread: ApiMessage = { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_again', name: 'Read', input: { file_path: '/f0' } }] };

    // Act
    account.beforeSend('x.jsonl#1', { ...request, messages: [...messages, reread] });

    // Assert: messages 1..4 hold two tool results
    expect(account.refaults()).toEqual({ blocksElided: 2, blocksRefaulted: 1, refaults: 1, rate: 0.5 });
  });

  it("should take the engine's hold where nothing latched over the threshold, and name the gate with its figures", () => {
    // Arrange: the engine's holds, one of them the gate's
    const account = new ShedAccount();

    // Act
    account.afterSend(step({ prepared: prepared(false, GATE_HOLD) }));
    account.afterSend(step({ n: 10, prepared: prepared(false, { reason: 'too_few_messages', detail: 'none' }) }));

    // Assert
    expect(account.epochs).toEqual([]);
    expect(account.held()).toMatchObject({
      requests: { gate: 1, too_few_messages: 1 },
      firstGate: { conversation: 'x.jsonl#1', request: 9, gate: { latch: false, expectedRemainingTurns: 0 }, spanBytes: 120_400, windowBytes: 3_000 },
    });
  });

  it('should count nothing where the engine gave no hold (under the threshold)', () => {
    // Arrange
    const account = new ShedAccount();

    // Act
    account.afterSend(step({ prepared: prepared(false) }));

    // Assert
    expect(account.held()).toEqual({ requests: {} });
  });
});
