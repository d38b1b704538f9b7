/**
 * The models that run the prefix check on every thinking block sent back to them: the
 * `supportedModels` of the Messages API docs page "Prefix checks on thinking blocks"
 * (platform.claude.com/docs/en/build-with-claude/preserved-thinking/prefix-checks). On these a
 * thinking block is valid only while everything before it (`system`, `tools`, earlier messages
 * and blocks) is unchanged since it was produced; any edit ctxshed makes invalidates the thinking
 * blocks after it (docs/rescue.md, "Preserved thinking").
 */

/** Model ids, as the docs list them; a dated variant (`<id>-20261001`) matches its id. */
export const PREFIX_CHECK_MODELS: readonly string[] = [
  'claude-fable-5-2',
  'claude-mythos-5-2',
  'claude-fable-5-1',
  'claude-mythos-5-1',
  'claude-opus-5-5',
  'claude-sonnet-5-5',
  'claude-haiku-5-5',
];

/**
 * Whether a request to `model` has its thinking blocks prefix-checked: the model is in the
 * table (its id, or its id followed by `-` and a suffix such as a date), or `learned` (this
 * conversation was seen refusing a ctxshed edit with the prefix check's 400).
 */
export function runsPrefixCheck(model: string | undefined, learned: boolean): boolean {
  if (learned) return true;
  if (model === undefined) return false;
  return PREFIX_CHECK_MODELS.some((id) => model === id || (model.startsWith(`${id}-`) && /^\d/.test(model.slice(id.length + 1))));
}
