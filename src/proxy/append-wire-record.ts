/** Writes one request's wire record and tells the state health how the write went. */
import type { StateHealth } from './state-health.js';

/** Where a record goes, and whom its write's outcome concerns. */
export interface WireDeps {
  readonly wire: { append(record: object): Promise<void> };
  readonly health: StateHealth;
}

/**
 * Appends `record`. Never rejects: a failed write marks the state unavailable. A write that works
 * says nothing of a latch that failed in this same request (`stateFailed`), nor of one that failed
 * in a later request before this line's batch was written (the mark is taken first).
 */
export async function appendWireRecord(deps: WireDeps, record: object, stateFailed: boolean): Promise<void> {
  const mark = deps.health.mark;
  await deps.wire.append(record).then(
    () => (stateFailed ? undefined : deps.health.succeeded(mark)),
    (error: unknown) => deps.health.failed(error),
  );
}
