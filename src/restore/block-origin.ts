/**
 * What produced an elided block: the tool and its main input (a file path, a command), when the
 * epoch record knows them. Version 3 epochs (labels) record `tool` and `input` on each block;
 * older ones know only the `tool_use_id`.
 */

/** The tool and its main input, each only when the record has it. */
export interface BlockOrigin {
  readonly tool?: string;
  readonly input?: string;
}

/** Reads the origin fields of a record's block, ignoring anything that is not a string. */
export function blockOrigin(block: object): BlockOrigin {
  const fields = block as Record<string, unknown>;
  const tool = fields['tool'];
  const input = fields['input'];
  return { ...(typeof tool === 'string' ? { tool } : {}), ...(typeof input === 'string' ? { input } : {}) };
}
