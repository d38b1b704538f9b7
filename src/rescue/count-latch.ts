/**
 * An epoch, counted once when it latches: its mode, trigger, blocks and text bytes. Never per
 * request that carries it (seed 000: summing a shed over the requests that repeat it counts the
 * same bytes once per request).
 */
import type { Epoch } from '../core/epoch-types.js';
import { spanOf, blocksOf, modeOfConversation } from '../core/index.js';
import type { Metrics } from '../metrics/metrics.js';

/** Reports the last epoch of `epochs` to `metrics`, under its conversation's mode: a shed epoch's bytes are its span's. */
export function countLatch(metrics: Metrics, epochs: readonly Epoch[]): void {
  const epoch = epochs[epochs.length - 1];
  if (epoch === undefined) return;
  // `ctxshed elide` writes the only `command` epochs, and no proxy counts them.
  if (epoch.trigger === 'command') return;
  let bytes = spanOf(epoch)?.bytes ?? 0;
  for (const block of blocksOf(epoch)) bytes += block.bytes;
  // Records written before triggers existed latched on the threshold.
  metrics.epochLatched(modeOfConversation(epochs), epoch.trigger ?? 'threshold', blocksOf(epoch).length, bytes);
}
