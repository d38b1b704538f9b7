/** An epoch of policy version 3: its frozen blocks carry their labels, and its ledger lists them. */
import type { FrozenBlock } from '../epoch-types.js';
import { freezeBlock, type PlannedBlock } from '../plan-elision.js';
import type { BlockLabel, LedgerRow } from './label-types.js';
import { ledgerRowOf } from './ledger.js';

/** The frozen blocks and the ledger of an epoch that considered `planned`, labelled `labels`. */
export interface LabelledEpochParts {
  /** The `pointer` and `drop` blocks, in the plan's order; a `keep` block is not frozen. */
  readonly blocks: FrozenBlock[];
  /** One row per considered block, `keep` ones included. */
  readonly ledger: LedgerRow[];
}

/**
 * Freezes each labelled block and writes its ledger row. `labels` must hold one label per
 * planned block (by ordinal); a planned block without one is a caller's bug and throws.
 */
export function freezeLabelled(planned: readonly PlannedBlock[], labels: readonly BlockLabel[]): LabelledEpochParts {
  const byOrdinal = new Map(labels.map((l) => [l.ordinal, l]));
  const blocks: FrozenBlock[] = [];
  const ledger: LedgerRow[] = [];
  for (const block of planned) {
    const label = byOrdinal.get(block.ordinal);
    if (label === undefined || label.toolUseId !== block.toolUseId) throw new Error(`no label for planned block ${block.ordinal}`);
    ledger.push(ledgerRowOf(label, block.sha256));
    if (label.label === 'keep') continue;
    blocks.push({ ...freezeBlock(block), label: label.label, rule: label.rule, tool: label.tool, input: label.input, refetch: label.refetch });
  }
  return { blocks, ledger };
}
