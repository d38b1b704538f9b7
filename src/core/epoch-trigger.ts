/** An epoch's trigger as the reports and checkers read it, old records included. */
import type { Epoch, EpochTrigger } from './epoch-types.js';

/** The epoch's trigger; a record from before triggers were recorded latched on the threshold. */
export function triggerOf(epoch: Pick<Epoch, 'trigger'>): EpochTrigger {
  return epoch.trigger ?? 'threshold';
}
