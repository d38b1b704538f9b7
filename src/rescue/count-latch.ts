/**
 * An epoch, counted once when it latches: its mode, trigger, blocks and text bytes. Never per
 * request that carries it (seed 000: summing a shed over the requests that repeat it counts the
 * same bytes once per request).
 */
import type { Epoch } from '../core/epoch-types.js';
import { modeOfEpoch } from '../core/index.js';
import type { Metrics } from '../metrics/metrics.js';

/** Reports `epoch` to `metrics`: a shed epoch's bytes are its span's. */
export function countLatch(metrics: Metrics, epoch: Epoch): void {
  // `ctxshed elide` writes the only `command` epochs, and no proxy counts them.
  if (epoch.trigger === 'command') return;
  let bytes = epoch.span?.bytes ?? 0;
  for (const block of epoch.blocks) bytes += block.bytes;
  // Records written before mode and trigger existed are rescue epochs latched on the threshold.
  metrics.epochLatched(modeOfEpoch(epoch), epoch.trigger ?? 'threshold', epoch.blocks.length, bytes);
}
