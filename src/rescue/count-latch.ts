/**
 * An epoch, counted once when it latches: its mode, trigger, blocks and text bytes. Never per
 * request that carries it (seed 000: summing a shed over the requests that repeat it counts the
 * same bytes once per request).
 */
import type { Epoch } from '../core/epoch-types.js';
import { figuresOfEpoch, modeOfConversation } from '../core/index.js';
import type { Metrics } from '../metrics/metrics.js';

/**
 * Reports the last epoch of `epochs` to `metrics`, under its conversation's mode: its blocks, and
 * the bytes every kind's items took out (a shed epoch's are its span's; core/epochs/epoch-figures.ts).
 */
export function countLatch(metrics: Metrics, epochs: readonly Epoch[]): void {
  const epoch = epochs[epochs.length - 1];
  if (epoch === undefined) return;
  // `ctxshed elide` writes the only `command` epochs, and no proxy counts them.
  if (epoch.trigger === 'command') return;
  // Nothing of the wire log is known here: only the items' own figures count.
  const figures = figuresOfEpoch({ epoch, tokensPerByte: 0, readsOf: () => 0, restores: 0, cacheReadBefore: null });
  // Records written before triggers existed latched on the threshold.
  metrics.epochLatched(modeOfConversation(epochs), epoch.trigger ?? 'threshold', figures.blocks, figures.bytesTaken);
}
