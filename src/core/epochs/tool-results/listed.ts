/** The tool-result kind's entries in the restore listing (`blocks`, docs/commands.md `spans`): one per elided tool result. */
import type { FrozenBlock } from '../../epoch-types.js';
import type { ListedAt } from '../kind-record.js';

/**
 * What produced an elided block: the tool and its main input (a file path, a command), when the
 * epoch record knows them. Version 3 epochs (labels) record `tool` and `input` on each block;
 * older ones know only the `tool_use_id`.
 */
export interface BlockOrigin {
  readonly tool?: string;
  readonly input?: string;
}

/** One elided block of a conversation. */
export interface RestorableBlock extends BlockOrigin {
  readonly sha256: string;
  readonly bytes: number;
  readonly epoch: number;
  readonly ordinal: number;
  readonly toolUseId: string;
  /** Whether `ctxshed seal` sealed it: then `restore` refuses it. */
  readonly sealed: boolean;
  /** False when its text is in neither elided/ nor sealed/ (verify says more). */
  readonly present: boolean;
}

/** Reads the origin fields of a record's block, ignoring anything that is not a string. */
export function blockOrigin(block: object): BlockOrigin {
  const fields = block as Record<string, unknown>;
  const tool = fields['tool'];
  const input = fields['input'];
  return { ...(typeof tool === 'string' ? { tool } : {}), ...(typeof input === 'string' ? { input } : {}) };
}

/** A block's entry in the listing. */
export function listedBlock(block: FrozenBlock, at: ListedAt): RestorableBlock {
  const { sha256, bytes, ordinal, toolUseId } = block;
  return { sha256, bytes, epoch: at.epoch, ordinal, toolUseId, ...blockOrigin(block), sealed: at.sealed, present: at.present };
}
