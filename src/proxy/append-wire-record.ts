/** Writes one request's wire record and tells the state health how the state's writes went. */
import type { StateHealth } from './state-health.js';

/** Where a record goes, and whom its write's outcome concerns. */
export interface WireDeps {
  readonly wire: { append(record: object): Promise<void> };
  readonly health: StateHealth;
}

/**
 * Appends `record`. Never rejects: a failed write marks the wire log unavailable, one that works
 * marks it writable again, unless a write failed after this line's batch began (the mark is taken
 * first). A request that `latched` an epoch wrote the store: that is what makes it writable again
 * (state-health.ts), never a wire line alone.
 */
export async function appendWireRecord(deps: WireDeps, record: object, latched: boolean): Promise<void> {
  if (latched) deps.health.succeeded('store');
  const mark = deps.health.mark;
  await deps.wire.append(record).then(
    () => deps.health.succeeded('wire', mark),
    (error: unknown) => deps.health.failed(error, 'wire'),
  );
}
