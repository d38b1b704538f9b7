/**
 * Per-request rewriting, the way rewriting proxies do it: the same eligibility (the core's
 * `planElision`) recomputed on every request, every eligible block stubbed by the core's
 * `rewriteRequest`, no epochs, no threshold. Pure: the hash is passed in.
 */
import { freezeBlock, indexTranscript, planElision, rewriteRequest, type ElisionPolicy, type PassthroughReason, type Sha256 } from '../core/index.js';

/** The body sent, the blocks stubbed (tool_use_id -> text bytes), and why not when it passed through. */
export interface EveryRequestOutcome {
  readonly body: Uint8Array;
  readonly stubbed: ReadonlyMap<string, number>;
  readonly reason?: PassthroughReason;
}

/** Stubs every block eligible in this request. */
export function rewriteEveryRequest(body: Uint8Array, policy: ElisionPolicy, elidedDir: string, sha256: Sha256): EveryRequestOutcome {
  const indexed = indexTranscript(body);
  if (indexed.kind === 'failed') return { body, stubbed: new Map(), reason: indexed.reason };
  const plan = planElision(body, indexed.index, policy, sha256);
  if (plan.length === 0) return { body, stubbed: new Map() };
  // Files are not written: only their names reach the body, and pricing needs only its bytes.
  const outcome = rewriteRequest(body, plan.map(freezeBlock), { elidedDir, sha256, isAvailable: () => true, index: indexed.index });
  if (outcome.kind === 'passthrough') return { body, stubbed: new Map(), reason: outcome.reason };
  const skipped = new Set(outcome.skipped.map((s) => s.ordinal));
  return { body: outcome.body, stubbed: new Map(plan.filter((b) => !skipped.has(b.ordinal)).map((b) => [b.toolUseId, b.bytes])) };
}
