import { describe, expect, it } from 'vitest';
import { upgradeEpoch, upgradeRecord } from '../../src/core/upgrade-record.js';

const HEAD = { n: 1, latchedAt: '2026-01-01T00:00:00.000Z' };
const REASON = { fullness: 0.8, threshold: 0.7, window: 200_000, contextTokens: 160_000 };
const POLICY = { name: 'p', version: 2, keepRecent: 6, minBytes: 1024 };
const BLOCK = { ordinal: 0, toolUseId: 't', bytes: 1, sha256: 'a'.repeat(64), jsonBytes: 3, jsonSha256: 'b'.repeat(64) };
const SPAN = { first: 1, last: 4, sha256: 'c'.repeat(64), bytes: 10, pins: [] };
const THINKING = { ordinal: 0, messageIndex: 2, blockIndex: 0, type: 'thinking', jsonBytes: 9, sha256: 'd'.repeat(64) };

describe('upgradeEpoch: a version 1 epoch in the one shape', () => {
  it('should read an epoch without a mode as a tool-result epoch, its blocks under tool_results, the rest in its order', () => {
    const old = { ...HEAD, trigger: 'threshold', reason: REASON, policy: POLICY, blocks: [BLOCK], ledger: [] };

    const upgraded = upgradeEpoch(old);

    expect(upgraded).toEqual({
      ...HEAD,
      kind: 'tool_results',
      trigger: 'threshold',
      reason: REASON,
      policy: POLICY,
      ledger: [],
      items: { tool_results: [BLOCK] },
    });
    expect(Object.keys(upgraded as object)).toEqual(['n', 'latchedAt', 'kind', 'trigger', 'reason', 'policy', 'items', 'ledger']);
  });

  it('should read a shed epoch as a span epoch holding its one span, and drop its empty blocks and its mode', () => {
    const old = { ...HEAD, mode: 'shed', reason: REASON, policy: POLICY, blocks: [], span: SPAN, gate: { latch: true } };

    expect(upgradeEpoch(old)).toEqual({ ...HEAD, kind: 'span', reason: REASON, policy: POLICY, gate: { latch: true }, items: { span: [SPAN] } });
  });

  it("should read a correction as a thinking_only epoch whatever its conversation's mode, and any epoch's thinking beside its own items", () => {
    const correction = { ...HEAD, mode: 'shed', trigger: 'prefix_check', reason: REASON, policy: POLICY, blocks: [], thinking: [THINKING] };
    const rescue = { ...HEAD, reason: REASON, policy: POLICY, blocks: [BLOCK], thinking: [THINKING] };

    expect(upgradeEpoch(correction)).toEqual({
      ...HEAD,
      kind: 'thinking_only',
      trigger: 'prefix_check',
      reason: REASON,
      policy: POLICY,
      items: { thinking_only: [THINKING] },
    });
    expect(upgradeEpoch(rescue)).toEqual({
      ...HEAD,
      kind: 'tool_results',
      reason: REASON,
      policy: POLICY,
      items: { tool_results: [BLOCK], thinking_only: [THINKING] },
    });
  });

  it("should read a registered kind's epoch by the one tag of its items", () => {
    const old = { ...HEAD, reason: REASON, policy: POLICY, blocks: [], items: { quotes: [{ sha256: 'e'.repeat(64) }] } };

    expect(upgradeEpoch(old)).toEqual({ ...HEAD, kind: 'quotes', reason: REASON, policy: POLICY, items: { quotes: [{ sha256: 'e'.repeat(64) }] } });
  });

  it('should leave what it does not recognise for the record check to name: a non-object, blocks that are no array', () => {
    expect(upgradeEpoch(3)).toBe(3);
    expect(upgradeEpoch({ ...HEAD, blocks: 'x' })).toEqual({ ...HEAD, kind: 'tool_results', items: { tool_results: 'x' } });
  });
});

describe('upgradeRecord', () => {
  it('should upgrade a version 1 record to the current format, and leave any other value as it is', () => {
    const old = { format: 'ctxshed.conversation/1', key: 'k', epochs: [{ ...HEAD, reason: REASON, policy: POLICY, blocks: [BLOCK] }] };
    const current = { format: 'ctxshed.conversation/2', key: 'k', epochs: [] };

    expect(upgradeRecord(old)).toEqual({
      format: 'ctxshed.conversation/2',
      key: 'k',
      epochs: [{ ...HEAD, kind: 'tool_results', reason: REASON, policy: POLICY, items: { tool_results: [BLOCK] } }],
    });
    expect(upgradeRecord(current)).toBe(current);
    expect(upgradeRecord('x')).toBe('x');
    expect(upgradeRecord({ format: 'ctxshed.conversation/1', epochs: 3 })).toEqual({ format: 'ctxshed.conversation/2', epochs: 3 });
  });
});
