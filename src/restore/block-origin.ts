/**
 * What produced an elided block: the tool and its main input (a file path, a command), when the
 * epoch record knows them. Records of policy versions up to 2 know only the `tool_use_id`; a
 * record that stores `tool` and `input` strings on its blocks has them shown.
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
