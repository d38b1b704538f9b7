import { describe, expect, it } from 'vitest';
import type { ForwardResult } from '../../src/proxy/forward.js';
import { countRequest } from '../../src/proxy/count-request.js';
import type { PassedThrough, Rewritten } from '../../src/rescue/index.js';
import { recordingMetrics } from '../support/recording-metrics.js';

const BODY = new Uint8Array([123, 125]);

function rewritten(extra: Partial<Rewritten> = {}): Rewritten {
  return {
    outcome: 'rewritten',
    body: BODY,
    route: 'messages',
    window: 200_000,
    agentId: undefined,
    rescued: 0,
    bytesElided: 0,
    skipped: [],
    epochs: 0,
    ...extra,
  };
}

function passedThrough(extra: Partial<PassedThrough> = {}): PassedThrough {
  return { outcome: 'passthrough', body: BODY, route: 'messages', window: 200_000, agentId: undefined, epochs: 0, reason: 'no_epoch', detail: '', ...extra };
}

function result(extra: Partial<ForwardResult> = {}): ForwardResult {
  return { status: 200, bytesOut: 10, timings: { headersMs: 250, totalMs: 900 }, ...extra };
}

describe('countRequest', () => {
  it("should count a rewritten model call: the request, the rewrite, the engine's time, the time to headers and the provider's usage", () => {
    const metrics = recordingMetrics();
    const usage = { inputTokens: 12, cacheCreationInputTokens: 3000, cacheReadInputTokens: 90_000, outputTokens: 40 };

    countRequest(metrics, rewritten({ rescued: 4, bytesElided: 16_000, epochs: 1 }), result({ usage }), 0.002);

    expect(metrics.calls).toEqual([
      ['requestDone', 'messages', 200],
      ['rewritten'],
      ['rewriteSeconds', 0.002],
      ['upstreamHeadersSeconds', 'messages', 0.25],
      ['providerUsage', 90_000, 3000, 12],
    ]);
  });

  it('should count a pass-through by its reason, and no engine time for a request that is not a model call', () => {
    const metrics = recordingMetrics();

    countRequest(metrics, passedThrough({ route: undefined, reason: 'not_a_model_call' }), result({ status: 404 }), 0.0001);

    expect(metrics.calls).toEqual([
      ['requestDone', undefined, 404],
      ['passthrough', 'not_a_model_call'],
      ['upstreamHeadersSeconds', undefined, 0.25],
    ]);
  });

  it('should count a hold by its reason: a working-set thrash is one', () => {
    const metrics = recordingMetrics();
    const hold = { reason: 'working_set_thrash' as const, detail: '3 eligible blocks are in the working set; the rest would free too little' };

    countRequest(metrics, rewritten({ epochs: 2, hold }), result({ timings: { totalMs: 5 } }), 0.001);

    expect(metrics.calls).toEqual([['requestDone', 'messages', 200], ['held', 'working_set_thrash'], ['rewritten'], ['rewriteSeconds', 0.001]]);
  });

  it('should count a held request, sent unchanged, by its hold and by why it went unchanged', () => {
    const metrics = recordingMetrics();
    const hold = { reason: 'gain_too_small' as const, detail: 'too little to free' };

    countRequest(metrics, { ...passedThrough({ epochs: 0 }), outcome: 'held', hold }, result({ timings: { totalMs: 5 } }), 0.001);

    expect(metrics.calls).toEqual([
      ['requestDone', 'messages', 200],
      ['held', 'gain_too_small'],
      ['passthrough', 'no_epoch'],
      ['rewriteSeconds', 0.001],
    ]);
  });

  it('should count a request the upstream never answered, with no time to headers and no usage', () => {
    const metrics = recordingMetrics();

    countRequest(metrics, passedThrough({ reason: 'no_epoch' }), result({ status: 502, timings: { totalMs: 5 } }), 0.001);

    expect(metrics.calls).toEqual([
      ['requestDone', 'messages', 502],
      ['passthrough', 'no_epoch'],
      ['rewriteSeconds', 0.001],
    ]);
  });

  it('should count the refaults of a request and how an overflow ended', () => {
    const refault = { toolUseId: 'toolu_9', epoch: 1, ordinal: 0, sha256: 'a'.repeat(64), via: 'read' as const };
    const overflow = { reason: 'overflow' as const, firstStatus: 400, tokens: 215_000, limit: 200_000 };
    const outcomes: Array<[Parameters<typeof countRequest>[4], string]> = [
      [{ ...overflow, sent: true, status: 200 }, 'retried'],
      [{ ...overflow, sent: true, status: 529 }, 'retried'],
      [{ ...overflow, sent: true, status: 400 }, 'retry_failed'],
      [{ ...overflow, sent: false, why: 'not_enough' }, 'nothing_to_free'],
    ];

    for (const [retry, outcome] of outcomes) {
      const metrics = recordingMetrics();
      countRequest(metrics, rewritten({ rescued: 4, refaults: [refault, { ...refault, ordinal: 1 }] }), result(), 0.001, retry);

      expect(metrics.calls.slice(0, 3)).toEqual([
        ['requestDone', 'messages', 200],
        ['overflowRetry', outcome],
        ['refaults', 2],
      ]);
    }
  });
});

describe('countRequest, thinking dropped by the API', () => {
  it('should count the blocks the response said the API dropped, once per reason', () => {
    const metrics = recordingMetrics();

    countRequest(
      metrics,
      passedThrough({ reason: 'no_epoch' }),
      result({ thinkingDropped: { count: 3, byReason: { prefix_binding_mismatch: 2, model_binding_mismatch: 1 } } }),
      0.001,
    );

    expect(metrics.calls.filter(([name]) => name === 'thinkingDropped')).toEqual([
      ['thinkingDropped', 'prefix_binding_mismatch', 2],
      ['thinkingDropped', 'model_binding_mismatch', 1],
    ]);
  });
});
