/**
 * A shell command that only shows one whole file: `cat <path>`, as Codex's `exec_command` runs it
 * (its `cmd`). Such a call reads like a Read of the whole file, so the superseded rule can match a
 * re-run of it (docs/labels.md). Anything more (flags, several files, a pipe, a redirection, a
 * variable) is not taken for a plain read.
 */
import type { ToolCall } from '../read-tool-calls.js';

/** The shell tools whose command field is read, and that field. */
const SHELL_COMMAND_FIELDS: Readonly<Record<string, string>> = { exec_command: 'cmd' };

// One word, or one quoted word without the quote inside; nothing the shell would expand or split.
const CAT_ONE_FILE = /^\s*cat\s+(?:'([^']+)'|"([^"$`\\]+)"|([^\s'"$`\\|&;<>()*?[\]{}~#!]+))\s*$/;

/** The file a plain `cat <path>` shell call shows whole; undefined for any other call. */
export function shellReadPathOf(call: ToolCall): string | undefined {
  const field = SHELL_COMMAND_FIELDS[call.name];
  const command = field === undefined ? undefined : call.strings.find(([k]) => k === field)?.[1];
  if (command === undefined) return undefined;
  const m = CAT_ONE_FILE.exec(command);
  return m === null ? undefined : (m[1] ?? m[2] ?? m[3]);
}
