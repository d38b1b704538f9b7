/** The wire record of one forwarded request (state/wire-record.ts), written after its response. */
import type { HoldReason } from '../core/index.js';
import { latchedOf, latchHoldOf, unreachable, type EngineRequest, type Prepared } from '../rescue/index.js';
import { buildWireRecord, type WireEngineInput, type WireTransport } from '../state/wire-record.js';
import { appendWireRecord, type WireDeps } from './append-wire-record.js';
import type { FinalExchange } from './overflow-retry.js';

/** What the record is built from. */
export interface RequestFacts {
  readonly request: EngineRequest;
  /** The first preparation (the one that weighed the latch). */
  readonly prepared: Prepared;
  /** The exchange as the client saw it in the end (after any retry). */
  readonly final: FinalExchange;
  /** `performance.now()` when the request came in, and when the engine had prepared it. */
  readonly startedAt: number;
  readonly preparedAt: number;
  /** How the request reached the proxy, when not as plain HTTP. */
  readonly transport?: WireTransport | undefined;
}

/** Builds and appends the record. Never rejects. */
export async function recordRequest(deps: WireDeps & { readonly now: () => Date }, facts: RequestFacts): Promise<void> {
  const { request, prepared, final } = facts;
  const { result } = final;
  const last = final.prepared;
  // The first preparation weighed the latch; a retry that latched on overflow leaves no hold.
  const hold = latchedOf(last) === undefined ? latchHoldOf(prepared)?.reason : undefined;
  const record = buildWireRecord({
    t: deps.now().toISOString(),
    method: request.method,
    target: request.target,
    route: last.route,
    status: final.status,
    responseBytes: final.responseBytes,
    ms: { total: performance.now() - facts.startedAt, prepare: facts.preparedAt - facts.startedAt, headers: result.timings.headersMs },
    outcome: {
      kind: 'sent',
      key: last.key,
      agentId: last.agentId,
      requestClass: prepared.requestClass,
      window: last.window,
      bytesIn: request.body.length,
      bytesOut: last.body.length,
      epochs: last.epochs,
      usage: result.usage,
      rewritePath: last.rewritePath,
      refaults: last.refaults,
      retry: final.retry,
      thinkingDropped: result.thinkingDropped,
      error: result.error?.code,
      streamError: result.streamError?.type,
      classifier: prepared.classifier,
      transport: facts.transport,
      engine: engineOutcomeOf(last, hold),
    },
  });
  // An epoch latched, by the first preparation or a retry's, and nothing failed: the store took its files and record.
  const stored = (latchedOf(prepared) !== undefined || latchedOf(last) !== undefined) && prepared.stateFailed !== true && last.stateFailed !== true;
  await appendWireRecord(deps, record, stored);
}

/**
 * What the record says the engine made of the request: the stubs and thinking of a rewrite, the
 * reason of the input bytes sent unchanged, and `hold` (the first preparation's) when it latched
 * none over the threshold: a request sent unchanged with a hold is a held one.
 */
function engineOutcomeOf(prepared: Prepared, hold: HoldReason | undefined): WireEngineInput {
  switch (prepared.outcome) {
    case 'rewritten':
      return {
        kind: 'rewritten',
        rescued: prepared.rescued,
        bytesElided: prepared.bytesElided,
        latched: prepared.latched,
        hold,
        skipped: prepared.skipped,
        repeats: prepared.repeats,
        thinkingRemoved: prepared.thinkingRemoved,
        thinkingSkipped: prepared.thinkingSkipped,
      };
    case 'passthrough':
      if (hold !== undefined) return { kind: 'held', reason: prepared.reason, hold, skipped: prepared.skipped };
      return { kind: 'passthrough', reason: prepared.reason, latched: prepared.latched, skipped: prepared.skipped };
    case 'held':
      if (hold !== undefined) return { kind: 'held', reason: prepared.reason, hold, skipped: prepared.skipped };
      return { kind: 'passthrough', reason: prepared.reason, skipped: prepared.skipped };
    default:
      return unreachable(prepared);
  }
}
