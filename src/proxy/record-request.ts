/** The wire record of one forwarded request (state/wire-record.ts), written after its response. */
import { latchedOf, latchHoldOf, unreachable, type EngineRequest, type Prepared } from '../rescue/index.js';
import { buildWireRecord, type WireRecordInput, type WireTransport } from '../state/wire-record.js';
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
  const record = buildWireRecord({
    t: deps.now().toISOString(),
    method: request.method,
    target: request.target,
    route: last.route,
    key: last.key,
    agentId: last.agentId,
    requestClass: prepared.requestClass,
    window: last.window,
    bytesIn: request.body.length,
    bytesOut: last.body.length,
    epochs: last.epochs,
    ...outcomeFacts(last),
    // The first preparation weighed the latch; a retry that latched on overflow leaves no hold.
    hold: latchedOf(last) === undefined ? latchHoldOf(prepared)?.reason : undefined,
    rewritePath: last.rewritePath,
    refaults: last.refaults,
    retry: final.retry,
    thinkingDropped: result.thinkingDropped,
    status: final.status,
    responseBytes: final.responseBytes,
    usage: result.usage,
    ms: { total: performance.now() - facts.startedAt, prepare: facts.preparedAt - facts.startedAt, headers: result.timings.headersMs },
    error: result.error?.code,
    streamError: result.streamError?.type,
    classifier: prepared.classifier,
    transport: facts.transport,
  });
  // An epoch latched, by the first preparation or a retry's, and nothing failed: the store took its files and record.
  const stored = (latchedOf(prepared) !== undefined || latchedOf(last) !== undefined) && prepared.stateFailed !== true && last.stateFailed !== true;
  await appendWireRecord(deps, record, stored);
}

/** What the record says of the request's outcome: the stubs and thinking of a rewrite, the reason of the input bytes sent unchanged. */
function outcomeFacts(
  prepared: Prepared,
): Pick<WireRecordInput, 'rescued' | 'bytesElided' | 'latched' | 'reason' | 'skipped' | 'repeats' | 'thinkingRemoved' | 'thinkingSkipped'> {
  switch (prepared.outcome) {
    case 'rewritten':
      return {
        rescued: prepared.rescued,
        bytesElided: prepared.bytesElided,
        latched: prepared.latched,
        skipped: prepared.skipped,
        repeats: prepared.repeats,
        thinkingRemoved: prepared.thinkingRemoved,
        thinkingSkipped: prepared.thinkingSkipped,
      };
    case 'passthrough':
      return { rescued: 0, bytesElided: 0, latched: prepared.latched, reason: prepared.reason, skipped: prepared.skipped };
    case 'held':
      return { rescued: 0, bytesElided: 0, reason: prepared.reason, skipped: prepared.skipped };
    default:
      return unreachable(prepared);
  }
}
