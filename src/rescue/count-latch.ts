/**
 * An epoch, counted once when it latches: its mode, trigger, blocks and text bytes. Never per
 * request that carries it (seed 000: summing a shed over the requests that repeat it counts the
 * same bytes once per request).
 */
import type { Epoch } from '../core/epoch-types.js';
import type { Metrics } from '../metrics/metrics.js';

/** Reports `epoch` to `metrics`. */
export function countLatch(metrics: Metrics, epoch: Epoch): void {
  let bytes = 0;
  for (const block of epoch.blocks) bytes += block.bytes;
  // Every epoch today freezes tool results and latches on the threshold. When the record carries
  // its mode and trigger (issues 11 and 12), they are read here, and only here.
  metrics.epochLatched('rescue', 'threshold', epoch.blocks.length, bytes);
}
