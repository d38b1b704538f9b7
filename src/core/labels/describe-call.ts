/** How a stub names a tool call and how it says to fetch the result again. */
import { MAIN_INPUT_MAX_CHARS, type Refetch } from './label-types.js';
import { truncateChars } from './main-input.js';
import { redactText } from './redact-text.js';

/**
 * Tools that only read: calling them again is a fair way back to what they showed (the current
 * version of it). Any other call may have effects, so its result is read from the elided file.
 */
const READ_ONLY_TOOLS = new Set(['Read', 'NotebookRead', 'Grep', 'Glob', 'LS', 'WebFetch', 'WebSearch']);

/** What the edge knows about the routes back when it latches. */
export interface RefetchOptions {
  /** ctxshed's MCP server, with its `restore` tool, is configured for this client. */
  readonly restoreTool?: boolean;
}

/** The route a stub recommends: the same call for read-only tools, else `restore` when offered, else the file. */
export function refetchFor(tool: string, options: RefetchOptions = {}): Refetch {
  if (READ_ONLY_TOOLS.has(tool)) return 'same-call';
  return options.restoreTool === true ? 'restore' : 'elided-file';
}

/**
 * The main input as a stub and the ledger quote it: redacted first (a command may carry a
 * token), then cut to MAIN_INPUT_MAX_CHARS characters. Empty when the call has none.
 */
export function describeInput(mainInput: string | undefined): string {
  if (mainInput === undefined) return '';
  return truncateChars(redactText(mainInput).text, MAIN_INPUT_MAX_CHARS);
}
