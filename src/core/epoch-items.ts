/**
 * The built-in kinds' items of one epoch, typed (core/epoch-types.ts `EpochItems`): what each
 * kind's folder (core/epochs/) and the code below it read instead of a field of its own. Any kind's
 * items are `itemsOfEpoch(epoch, kind)` (core/epochs/kind-record.ts).
 */
import type { Epoch, FrozenBlock } from './epoch-types.js';
import type { FrozenSpan } from './shed/shed-types.js';
import type { FrozenThinking } from './thinking/thinking-types.js';

/** An epoch's tool results and deeper-cut parts (none for another kind's). */
export function blocksOf(epoch: Epoch): readonly FrozenBlock[] {
  return epoch.items.tool_results ?? [];
}

/** The span an epoch shed, if it is a span epoch. */
export function spanOf(epoch: Epoch): FrozenSpan | undefined {
  return epoch.items.span?.[0];
}

/** The thinking blocks an epoch removes, of any kind (a correction epoch removes only these). */
export function frozenThinkingOf(epoch: Epoch): readonly FrozenThinking[] {
  return epoch.items.thinking_only ?? [];
}
