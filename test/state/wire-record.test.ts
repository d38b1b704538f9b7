import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { buildWireRecord, type WireRecordInput } from '../../src/state/wire-record.js';

const INPUT: WireRecordInput = {
  t: '2026-01-01T00:00:00.000Z',
  method: 'POST',
  target: '/v1/messages?beta=true&secret=x',
  route: 'messages',
  key: 'a'.repeat(64),
  agentId: undefined,
  window: 200_000,
  bytesIn: 1000,
  bytesOut: 600,
  rescued: 2,
  bytesElided: 400,
  epochs: 1,
  latched: 1,
  reason: undefined,
  skipped: [{ reason: 'file_missing' }, { reason: 'file_missing' }, { reason: 'hash_mismatch' }],
  status: 200,
  responseBytes: 321,
  usage: { inputTokens: 10, cacheCreationInputTokens: 20_000, cacheReadInputTokens: 120_190, outputTokens: 7, model: 'claude-test' },
  ms: { total: 12.345, prepare: 1.26, headers: undefined },
};

describe('buildWireRecord, request class', () => {
  it("should keep Claude Code's request class when it sent one, and say nothing without one", () => {
    expect(buildWireRecord({ ...INPUT, requestClass: 'compaction' }).requestClass).toBe('compaction');
    expect('requestClass' in buildWireRecord(INPUT)).toBe(false);
  });
});

describe('buildWireRecord, hold', () => {
  it('should keep the hold reason of a request that latched nothing over the threshold, and say nothing without one', () => {
    const held = buildWireRecord({ ...INPUT, latched: undefined, hold: 'stale_reading' });

    expect(held.hold).toBe('stale_reading');
    expect('hold' in buildWireRecord(INPUT)).toBe(false);
  });
});

describe('buildWireRecord', () => {
  it('should keep the path without its query, count skipped blocks by reason and round the figures', () => {
    const record = buildWireRecord(INPUT);

    expect(record).toEqual({
      t: INPUT.t,
      method: 'POST',
      path: '/v1/messages',
      route: 'messages',
      key: 'a'.repeat(64),
      model: 'claude-test',
      status: 200,
      bytesIn: 1000,
      bytesOut: 600,
      responseBytes: 321,
      rescued: 2,
      bytesElided: 400,
      epochs: 1,
      latched: 1,
      skipped: { file_missing: 2, hash_mismatch: 1 },
      usage: { input: 10, cacheCreation: 20_000, cacheRead: 120_190, output: 7 },
      window: 200_000,
      fullness: 0.701,
      ms: { total: 12.3, prepare: 1.3 },
    });
  });

  it('should say null for a request in no conversation, and give no fullness outside messages', () => {
    const record = buildWireRecord({
      ...INPUT,
      route: 'count_tokens',
      key: undefined,
      latched: undefined,
      skipped: undefined,
      reason: 'no_epoch',
      error: 'UPSTREAM_ABORTED',
      streamError: 'overloaded_error',
    });

    expect(record.key).toBeNull();
    expect(record.fullness).toBeUndefined();
    expect(record).toMatchObject({ route: 'count_tokens', reason: 'no_epoch', error: 'UPSTREAM_ABORTED', streamError: 'overloaded_error' });
    expect('skipped' in record || 'latched' in record).toBe(false);
  });

  it('should name why ctxshed refused a request, and leave the field out otherwise', () => {
    expect(buildWireRecord({ ...INPUT, status: 403, refused: 'browser_origin' }).refused).toBe('browser_origin');
    expect('refused' in buildWireRecord(INPUT)).toBe(false);
  });

  it('should say how the rewrite ran when one ran, and leave the field out otherwise', () => {
    const incremental = buildWireRecord({ ...INPUT, rewritePath: 'incremental' });
    const full = buildWireRecord({ ...INPUT, rewritePath: 'full' });
    const none = buildWireRecord(INPUT);

    expect([incremental.rewritePath, full.rewritePath]).toEqual(['incremental', 'full']);
    expect('rewritePath' in none).toBe(false);
  });

  it("should keep ctxshed's own classifier call as it was reported, and leave the field out without one", () => {
    const classifier = {
      model: 'claude-haiku-4-5',
      outcome: 'scored' as const,
      status: 200,
      ms: 812,
      chunks: 9,
      scored: 9,
      usage: { input: 4100, output: 300 },
      costUsd: 0.0056,
    };

    const withCall = buildWireRecord({ ...INPUT, classifier });
    const without = buildWireRecord(INPUT);

    expect(withCall.classifier).toEqual(classifier);
    expect('classifier' in without).toBe(false);
  });

  it('should count the refaults and name each block read back, and keep the retry as the proxy gave it', () => {
    const refaults = [
      { toolUseId: 'toolu_9', epoch: 1, ordinal: 3, sha256: 'c'.repeat(64), via: 'read' as const },
      { toolUseId: 'toolu_9', epoch: 2, ordinal: 7, sha256: 'd'.repeat(64), via: 'read' as const },
    ];
    const retry = { reason: 'overflow' as const, firstStatus: 400, tokens: 215_000, limit: 200_000, sent: true, status: 200 };

    const record = buildWireRecord({ ...INPUT, refaults, retry });
    const none = buildWireRecord({ ...INPUT, refaults: [] });

    expect(record).toMatchObject({
      refaults: 2,
      refaulted: [
        { epoch: 1, ordinal: 3, via: 'read' },
        { epoch: 2, ordinal: 7, via: 'read' },
      ],
      retry,
    });
    expect(JSON.stringify(record)).not.toContain('toolu_9');
    // The call is named by a hash of its id: 16 hex digits of sha256('toolu_9').
    const call = createHash('sha256').update('toolu_9').digest('hex').slice(0, 16);
    expect(record.refaulted?.map((r) => r.call)).toEqual([call, call]);
    expect('refaults' in none || 'refaulted' in none || 'retry' in none).toBe(false);
  });
});

describe('buildWireRecord, thinking dropped by the API', () => {
  it('should keep how many thinking blocks the API dropped, by reason, and say nothing when none', () => {
    const record = buildWireRecord({ ...INPUT, thinkingDropped: { count: 3, byReason: { prefix_binding_mismatch: 2, model_binding_mismatch: 1 } } });

    expect(record.thinkingDropped).toBe(3);
    expect(record.thinkingDroppedBy).toEqual({ prefix_binding_mismatch: 2, model_binding_mismatch: 1 });
    expect('thinkingDropped' in buildWireRecord(INPUT)).toBe(false);
    expect('thinkingDroppedBy' in buildWireRecord({ ...INPUT, thinkingDropped: { count: 0, byReason: {} } })).toBe(false);
  });
});
