/**
 * Calls that give ctxshed's stored text back to the model: the `restore` tool of `ctxshed mcp`,
 * or a Read of a span's `.md`/`.json` or of an elided block's file. Their answers are what the
 * model asked to see again, so a later epoch must not shed them while they are recent
 * (docs/shed.md, "The recent window"); shedding them at once made one run re-shed and restore the
 * same text over twelve epochs. Matched by the file name's shape, as refault counting matches them
 * (core/detect-refaults.ts), so the rule needs no state directory.
 */
import { RESTORE_TOOL_NAME } from '../detect-refaults.js';
import { stringField, type ToolCall } from '../read-tool-calls.js';

const STORED_FILE = /(?:^|[\\/])(?:spans[\\/][0-9a-f]{64}\.(?:md|json)|[0-9a-fA-F]{64}\.txt)$/;

/** Whether a tool call reads text ctxshed took out of the window back into it. */
export function isRestoreCall(call: ToolCall): boolean {
  if (call.name === RESTORE_TOOL_NAME) return true;
  if (call.name !== 'Read') return false;
  const path = stringField(call, 'file_path');
  return path !== undefined && STORED_FILE.test(path);
}
