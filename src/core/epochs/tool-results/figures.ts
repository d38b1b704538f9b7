/** The tool-result kind's figures in the reports (src/report/epoch-summary.ts): its blocks, their bytes and tokens, and their reads back. */
import type { FrozenBlock } from '../../epoch-types.js';
import type { EpochFigures, FiguresAt } from '../epoch-figures.js';

/** An epoch's elided blocks: how many, their text bytes, those in tokens, and the reads back of each (docs/rescue.md, "Refaults"). */
export function blockFigures(blocks: readonly FrozenBlock[], at: FiguresAt): Partial<EpochFigures> {
  // Only the epoch's own blocks count: a line naming another ordinal is not believed.
  const reads = blocks.map((b) => at.readsOf(b.ordinal));
  const bytes = blocks.reduce((total, block) => total + block.bytes, 0);
  return {
    blocks: blocks.length,
    bytes,
    tokens: Math.round(bytes * at.tokensPerByte),
    refaults: reads.reduce((total, n) => total + n, 0),
    blocksRefaulted: reads.filter((n) => n > 0).length,
    bytesTaken: bytes,
  };
}
