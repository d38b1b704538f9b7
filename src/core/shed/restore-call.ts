/**
 * Calls that give ctxshed's stored text back to the model: the `restore` tool of `ctxshed mcp`,
 * a Read of a stored text (an elided block's file, a span's `.md`/`.json`, any kind's original it
 * gives back: core/stored-files.ts), or a Codex shell call that prints one (`cat`, `head`,
 * `sed -n`). Their answers are what the model asked to see again, so a later epoch must not shed
 * them while they are recent (docs/shed.md, "The recent window"); shedding them at once made one
 * run re-shed and restore the same text over twelve epochs. Matched by the file's name and folder,
 * as refault counting matches them (core/detect-refaults.ts), so the rule needs no state directory.
 */
import { RESTORE_TOOL_NAME } from '../detect-refaults.js';
import { stringField, type ToolCall } from '../read-tool-calls.js';
import { printsStoredFile, storedShaOfPath } from '../stored-files.js';

/** The tools a Codex model runs shell commands with: function calls, and the custom `exec` tool whose input is code that runs them. */
export const SHELL_TOOL_NAMES: ReadonlySet<string> = new Set(['shell', 'exec', 'exec_command', 'local_shell', 'container.exec']);
/** The fields of such a call that hold the command (or the code): `cmd`, `command`, unparsed `arguments`, a custom tool's `input`. */
const COMMAND_KEYS: ReadonlySet<string> = new Set(['cmd', 'command', 'arguments', 'input']);

/** Whether a tool call reads text ctxshed took out of the window back into it. */
export function isRestoreCall(call: ToolCall): boolean {
  if (call.name === RESTORE_TOOL_NAME) return true;
  if (SHELL_TOOL_NAMES.has(call.name)) return call.strings.some(([key, text]) => COMMAND_KEYS.has(key) && printsStoredFile(text));
  if (call.name !== 'Read') return false;
  const path = stringField(call, 'file_path');
  return path !== undefined && storedShaOfPath(path) !== undefined;
}
