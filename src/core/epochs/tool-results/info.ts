/** The tool-result kind's readers' record (rescue mode): its blocks' originals in `elided/`. */
import { isPart, type FrozenBlock } from '../../epoch-types.js';
import { partPlaceOf } from '../../part-place.js';
import type { EpochKindInfo } from '../kind-record.js';
import { checkBlocks } from './check-record.js';

/**
 * The order a conversation's frozen blocks are applied in: tool results by ordinal (as before
 * parts), then the deeper cut's parts by their place.
 */
export function byBlockOrder(a: FrozenBlock, b: FrozenBlock): number {
  if (!isPart(a) || !isPart(b)) return isPart(a) === isPart(b) ? a.ordinal - b.ordinal : isPart(a) ? 1 : -1;
  return a.messageIndex - b.messageIndex || a.blockIndex - b.blockIndex || comparePaths(a.path, b.path);
}

function comparePaths(a: FrozenBlock['path'] & {}, b: FrozenBlock['path'] & {}): number {
  const x = JSON.stringify(a);
  const y = JSON.stringify(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** The tool-result kind, as the record, report, verify, restore and inflate code see it. */
export const TOOL_RESULTS_INFO: EpochKindInfo<FrozenBlock> & { readonly tag: 'tool_results' } = {
  tag: 'tool_results',
  mode: 'rescue',
  counts: 'blocks',
  byCommand: true,
  originals: 'elided',
  restorable: { name: 'elided tool result', ext: 'txt' },
  order: byBlockOrder,
  exts: ['txt', 'json'],
  describe: (b) => `${b.part === undefined ? 'ordinal' : b.part} ${b.ordinal}`,
  says: 'block',
  checkItems: checkBlocks,
  filesOf: (b) => [{ sha256: b.sha256, ext: 'txt', bytes: b.bytes }, ...(b.rawSha256 === undefined ? [] : [{ sha256: b.rawSha256, ext: 'json' as const }])],
  // Just after the stubbed tool_result, when the block at its ordinal is still the same call's; a
  // part, just after its own block.
  changesAt: (b, index) => {
    if (isPart(b)) return partPlaceOf(b, index);
    const at = index.toolResults[b.ordinal];
    return at !== undefined && at.toolUseId === b.toolUseId ? { messageIndex: at.messageIndex, blockIndex: at.blockIndex + 1 } : undefined;
  },
};
