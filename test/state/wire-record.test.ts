import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { buildWireRecord, wireOutcomeOf, type WireEngineInput, type WireRecordInput, type WireSentInput } from '../../src/state/wire-record.js';

const REWRITTEN: WireEngineInput = {
  kind: 'rewritten',
  rescued: 2,
  bytesElided: 400,
  latched: 1,
  skipped: [{ reason: 'file_missing' }, { reason: 'file_missing' }, { reason: 'hash_mismatch' }],
};

const SENT: WireSentInput = {
  kind: 'sent',
  key: 'a'.repeat(64),
  agentId: undefined,
  window: 200_000,
  bytesIn: 1000,
  bytesOut: 600,
  epochs: 1,
  usage: { inputTokens: 10, cacheCreationInputTokens: 20_000, cacheReadInputTokens: 120_190, outputTokens: 7, model: 'claude-test' },
  engine: REWRITTEN,
};

const INPUT: WireRecordInput = {
  t: '2026-01-01T00:00:00.000Z',
  method: 'POST',
  target: '/v1/messages?beta=true&secret=x',
  route: 'messages',
  status: 200,
  responseBytes: 321,
  ms: { total: 12.345, prepare: 1.26, headers: undefined },
  outcome: SENT,
};

/** INPUT with the sent request's facts (and what the engine made of it) changed. */
const sent = (over: Partial<WireSentInput>): WireRecordInput => ({ ...INPUT, outcome: { ...SENT, ...over } });

describe('buildWireRecord, request class', () => {
  it("should keep Claude Code's request class when it sent one, and say nothing without one", () => {
    expect(buildWireRecord(sent({ requestClass: 'compaction' })).requestClass).toBe('compaction');
    expect('requestClass' in buildWireRecord(INPUT)).toBe(false);
  });
});

describe('buildWireRecord, hold', () => {
  it('should keep the hold reason of a request that latched nothing over the threshold, and say nothing without one', () => {
    const held = buildWireRecord(sent({ engine: { ...REWRITTEN, latched: undefined, hold: 'stale_reading' } }));
    const unchanged = buildWireRecord(sent({ engine: { kind: 'held', reason: 'no_epoch', hold: 'gain_too_small' } }));

    expect(held.hold).toBe('stale_reading');
    expect([wireOutcomeOf(held), wireOutcomeOf(unchanged)]).toEqual(['rewritten', 'held']);
    expect(unchanged).toMatchObject({ hold: 'gain_too_small', reason: 'no_epoch', rescued: 0, bytesElided: 0 });
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
      ...sent({ key: undefined, engine: { kind: 'passthrough', reason: 'no_epoch' }, error: 'UPSTREAM_ABORTED', streamError: 'overloaded_error' }),
      route: 'count_tokens',
    });

    expect(record.key).toBeNull();
    expect(record.fullness).toBeUndefined();
    expect(record).toMatchObject({ route: 'count_tokens', reason: 'no_epoch', error: 'UPSTREAM_ABORTED', streamError: 'overloaded_error' });
    expect('skipped' in record || 'latched' in record).toBe(false);
  });

  it('should name why ctxshed refused a request, and leave the field out otherwise', () => {
    const refused = buildWireRecord({ ...INPUT, status: 403, outcome: { kind: 'refused', refused: 'browser_origin' } });

    expect(refused).toEqual({
      t: INPUT.t,
      method: 'POST',
      path: '/v1/messages',
      route: 'messages',
      key: null,
      status: 403,
      bytesIn: 0,
      bytesOut: 0,
      responseBytes: 321,
      rescued: 0,
      bytesElided: 0,
      epochs: 0,
      refused: 'browser_origin',
      ms: { total: 12.3, prepare: 1.3 },
    });
    expect(wireOutcomeOf(refused)).toBe('refused');
    expect('refused' in buildWireRecord(INPUT)).toBe(false);
  });

  it('should say how the rewrite ran when one ran, and leave the field out otherwise', () => {
    const incremental = buildWireRecord(sent({ rewritePath: 'incremental' }));
    const full = buildWireRecord(sent({ rewritePath: 'full' }));
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

    const withCall = buildWireRecord(sent({ classifier }));
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

    const record = buildWireRecord(sent({ refaults, retry }));
    const none = buildWireRecord(sent({ refaults: [] }));

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
    const record = buildWireRecord(sent({ thinkingDropped: { count: 3, byReason: { prefix_binding_mismatch: 2, model_binding_mismatch: 1 } } }));

    expect(record.thinkingDropped).toBe(3);
    expect(record.thinkingDroppedBy).toEqual({ prefix_binding_mismatch: 2, model_binding_mismatch: 1 });
    expect('thinkingDropped' in buildWireRecord(INPUT)).toBe(false);
    expect('thinkingDroppedBy' in buildWireRecord(sent({ thinkingDropped: { count: 0, byReason: {} } }))).toBe(false);
  });
});

describe('buildWireRecord, the lines ctxshed answers itself', () => {
  it('should write a WebSocket warm-up and a closed socket with nothing forwarded, their fields in the order they always had', () => {
    const warmup = buildWireRecord({ ...INPUT, target: '/v1/responses', route: 'responses', responseBytes: 0, outcome: { kind: 'warmup', bytesIn: 55 } });
    const closed = buildWireRecord({ ...INPUT, method: 'GET', route: undefined, status: 101, responseBytes: 0, outcome: { kind: 'closed', closeCode: 1009 } });

    expect(JSON.stringify(warmup)).toBe(
      '{"t":"2026-01-01T00:00:00.000Z","method":"POST","path":"/v1/responses","route":"responses","key":null,"status":200,"bytesIn":55,"bytesOut":0,"responseBytes":0,"rescued":0,"bytesElided":0,"epochs":0,"ms":{"total":12.3,"prepare":1.3},"transport":"websocket","warmup":true}',
    );
    expect(closed).toMatchObject({ route: null, status: 101, bytesIn: 0, transport: 'websocket', closeCode: 1009 });
    expect([wireOutcomeOf(warmup), wireOutcomeOf(closed)]).toEqual(['own', 'own']);
  });

  it("should keep a sent request's fields in the order the log always had them", () => {
    const line = buildWireRecord(sent({ agentId: 'agent-1', engine: { kind: 'passthrough', reason: 'no_epoch' }, transport: 'websocket' }));

    expect(Object.keys(line)).toEqual([
      't',
      'method',
      'path',
      'route',
      'key',
      'agentId',
      'model',
      'status',
      'bytesIn',
      'bytesOut',
      'responseBytes',
      'rescued',
      'bytesElided',
      'epochs',
      'reason',
      'usage',
      'window',
      'fullness',
      'ms',
      'transport',
    ]);
    expect(wireOutcomeOf(line)).toBe('passthrough');
  });
});
