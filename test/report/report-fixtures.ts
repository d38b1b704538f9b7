/** Small wire records and conversation records to build report inputs from, in tests. */
import type { Epoch, FrozenBlock } from '../../src/core/epoch-types.js';
import type { FrozenSpan } from '../../src/core/shed/shed-types.js';
import type { GateDecision } from '../../src/core/break-even.js';
import type { WireLine, WireOutcomeFields, WireRecord, WireSentFacts } from '../../src/state/wire-record.js';

/** Any field a line may hold: a fixture lays some on a default line, as a log read back may have them. */
export type WireFields = Partial<WireLine & WireSentFacts & WireOutcomeFields>;
import type { ConversationRecord } from '../../src/state/conversation-record.js';

export const KEY_A = `${'a'.repeat(63)}1`;
export const KEY_B = `${'b'.repeat(63)}2`;
export const KEY_C = `${'c'.repeat(63)}3`;

/** A messages-route wire record of conversation `key`, passed through as `no_epoch` unless told otherwise. */
export function wire(overrides: WireFields & { t: string }, key: string | null = KEY_A): WireRecord {
  // Read as the reports read a line (report/read-wire-log.ts): its fields' types checked, not its outcome's shape.
  return {
    method: 'POST',
    path: '/v1/messages',
    route: 'messages',
    key,
    model: 'claude-sonnet-4-5-20250929',
    status: 200,
    bytesIn: 10_000,
    bytesOut: 10_000,
    responseBytes: 500,
    rescued: 0,
    bytesElided: 0,
    epochs: 0,
    reason: 'no_epoch',
    usage: { input: 3, cacheCreation: 1000, cacheRead: 1497, output: 20 },
    window: 20_000,
    fullness: 0.125,
    ms: { total: 3, prepare: 1 },
    ...overrides,
  } as WireRecord;
}

/** A rewritten request carrying `epochs` epochs and `rescued` stubs for `bytesElided` text bytes. */
export function rewritten(t: string, epochs: number, rescued: number, bytesElided: number, extra: WireFields = {}, key = KEY_A): WireRecord {
  const { reason: _dropped, ...base } = wire({ t }, key);
  return { ...base, epochs, rescued, bytesElided, bytesIn: 40_000, bytesOut: 40_000 - bytesElided + rescued * 270, ...extra } as WireRecord;
}

/** A frozen block of `bytes` text bytes at `ordinal`. */
export function block(ordinal: number, bytes: number, sha = String(ordinal % 10).repeat(64)): FrozenBlock {
  return { ordinal, toolUseId: `toolu_${ordinal}`, bytes, sha256: sha, jsonBytes: bytes + 20, jsonSha256: 'f'.repeat(64) };
}

/** Epoch `n` latched at `latchedAt` with `blocks`. */
export function epoch(n: number, latchedAt: string, blocks: FrozenBlock[], fullness = 0.72): Epoch {
  return {
    n,
    latchedAt,
    reason: { fullness, threshold: 0.7, window: 20_000, contextTokens: Math.round(fullness * 20_000) },
    kind: 'tool_results',
    policy: { name: 'elide-old-tool-results', version: 1, keepRecent: 6, minBytes: 1024 },
    items: { tool_results: blocks },
  };
}

/** The record of conversation `key` with `epochs`. */
export function record(epochs: Epoch[], key = KEY_A, firstPrompt = 'Fix the cache bug'): ConversationRecord {
  return {
    format: 'ctxshed.conversation/2',
    key,
    agentId: null,
    firstPrompt,
    model: 'claude-sonnet-4-5',
    createdAt: epochs[0]?.latchedAt ?? '2026-01-01T00:00:00.000Z',
    epochs,
  };
}

/** Shed epoch `n` latched at `latchedAt`: it sheds `span`, having passed a gate that dropped `dropped` tokens. */
export function shedEpoch(n: number, latchedAt: string, span: FrozenSpan, dropped: number, fullness = 0.72): Epoch {
  const gate: GateDecision = {
    writeMult: 1.25,
    readMult: 0.1,
    invalidatedSuffixTokens: 10_071,
    droppedCachedTokens: dropped,
    breakEvenTurns: 15,
    expectedRemainingTurns: 40,
    horizonFrom: 'horizon',
    latch: true,
  };
  return {
    ...epoch(n, latchedAt, [], fullness),
    kind: 'span',
    trigger: 'threshold',
    policy: { name: 'shed-stale-middle', version: 1, keepRecent: 6, minBytes: 0, keepPersonTurns: 2 },
    items: { span: [span] },
    gate,
  };
}
