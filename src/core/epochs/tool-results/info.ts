/** The tool-result kind's readers' record (rescue mode): its blocks' originals in `elided/`. */
import type { FrozenBlock } from '../../epoch-types.js';
import { byOrdinal, type EpochKindInfo } from '../kind-record.js';

/** The tool-result kind, as the record, report, verify, restore and inflate code see it. */
export const TOOL_RESULTS_INFO: EpochKindInfo<FrozenBlock> & { readonly tag: 'tool_results' } = {
  tag: 'tool_results',
  mode: 'rescue',
  counts: 'blocks',
  byCommand: true,
  originals: 'elided',
  itemsOf: (e) => e.blocks,
  order: byOrdinal,
  filesOf: (b) => [{ sha256: b.sha256, ext: 'txt', bytes: b.bytes }, ...(b.rawSha256 === undefined ? [] : [{ sha256: b.rawSha256, ext: 'json' as const }])],
  // Just after the stubbed tool_result, when the block at its ordinal is still the same call's.
  changesAt: (b, index) => {
    const at = index.toolResults[b.ordinal];
    return at !== undefined && at.toolUseId === b.toolUseId ? { messageIndex: at.messageIndex, blockIndex: at.blockIndex + 1 } : undefined;
  },
};
