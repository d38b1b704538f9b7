/**
 * The thinking kind's readers' record: the thinking blocks an epoch removes on a model that runs
 * the prefix check, their originals in `thinking/` (docs/rescue.md, "Preserved thinking"). A
 * thinking block goes with any epoch on such a model, not only a correction's.
 */
import type { FrozenThinking } from '../../thinking/thinking-types.js';
import { byOrdinal, type EpochKindInfo } from '../kind-record.js';
import { thinkingChecker } from './check-record.js';

/** The thinking kind, as the record, report, verify, restore and inflate code see it. */
export const THINKING_ONLY_INFO: EpochKindInfo<FrozenThinking> & { readonly tag: 'thinking_only' } = {
  tag: 'thinking_only',
  mode: undefined,
  counts: 'thinking',
  byCommand: false,
  originals: 'thinking',
  // Removed thinking is given back to the client by inflate only: `show` prints none of it.
  shown: { exts: {}, usedBy: () => undefined },
  figures: (thinking) => ({ thinking: thinking.length }),
  order: byOrdinal,
  exts: ['json'],
  describe: (t) => `thinking ${t.ordinal}`,
  says: 'record',
  checkItems: thinkingChecker,
  trigger: 'prefix_check',
  alongside: true,
  filesOf: (t) => [{ sha256: t.sha256, ext: 'json', bytes: t.jsonBytes }],
  changesAt: (t, index) => (t.messageIndex < index.messages.length ? { messageIndex: t.messageIndex, blockIndex: t.blockIndex + 1 } : undefined),
};
