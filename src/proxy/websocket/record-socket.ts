/**
 * The wire records a Responses WebSocket writes besides its forwarded messages' (which the request
 * path writes, with `transport: 'websocket'`): a warm-up ctxshed answered itself, and a socket
 * closed on a bad frame. Never headers, never bodies.
 */
import { buildWireRecord } from '../../state/wire-record.js';
import { appendWireRecord, type WireDeps } from '../append-wire-record.js';
import type { ServedMetrics } from '../../metrics/metrics.js';

/** What the records are written and counted with. */
export interface SocketRecordDeps extends WireDeps {
  readonly now: () => Date;
  readonly metrics: Pick<ServedMetrics, 'requestDone'>;
}

/** Records a warm-up answered by ctxshed: counted as a Responses call with status 200, nothing forwarded. Never rejects. */
export async function recordWarmup(deps: SocketRecordDeps, target: string, facts: { bytesIn: number; started: number }): Promise<void> {
  deps.metrics.requestDone('responses', 200);
  const record = buildWireRecord({
    t: deps.now().toISOString(),
    method: 'POST',
    target,
    route: 'responses',
    status: 200,
    responseBytes: 0,
    ms: { total: performance.now() - facts.started, prepare: 0 },
    outcome: { kind: 'warmup', bytesIn: facts.bytesIn },
  });
  await appendWireRecord(deps, record, false);
}

/** Records a socket closed on a client's bad frame (`closeCode` 1002, 1007 or 1009). Never rejects. */
export async function recordSocketEvent(deps: SocketRecordDeps, target: string, facts: { closeCode: number }): Promise<void> {
  const record = buildWireRecord({
    t: deps.now().toISOString(),
    method: 'GET',
    target,
    route: undefined,
    status: 101,
    responseBytes: 0,
    ms: { total: 0, prepare: 0 },
    outcome: { kind: 'closed', closeCode: facts.closeCode },
  });
  await appendWireRecord(deps, record, false);
}
