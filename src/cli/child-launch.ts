/**
 * What `rescue` runs: COMMAND with the proxy's URL and tool search in its environment, and, when
 * it is Claude Code, the read grant and the restore tools on its command line (docs/rescue.md).
 */
import { fileURLToPath } from 'node:url';
import type { StateDir } from '../state/layout.js';
import { claudeGrant, type Grant, type McpLaunch } from '../wrapper/claude-grant.js';
import { recognizeClaudeCode, type CommandLookup } from '../wrapper/claude-code-command.js';
import { insertArgs } from '../wrapper/insert-args.js';
import { statusLineWord } from '../wrapper/claude-statusline.js';

/** Claude Code keeps its tool search off behind a proxy that is not a first-party host unless this says it may. */
export const TOOL_SEARCH_VAR = 'ENABLE_TOOL_SEARCH';

/**
 * Claude Code 2.1.332 sends `x-claude-code-request-class` only when this is set (or on a flag its
 * own servers turn on): without it, a session behind ctxshed names no request class at all
 * (checked against the binary and a local server: unset, no header; `1`, `main`).
 */
export const REQUEST_CLASS_VAR = 'CLAUDE_CODE_GATEWAY_HINT_HEADERS';

/** `ctxshed mcp` as this very ctxshed would run it: the same node, the same entry point. */
export const SELF_MCP: McpLaunch = { node: process.execPath, entry: fileURLToPath(new URL('./main.js', import.meta.url)) };

/** The child's command line and environment, and the one line the banner adds about the grant. */
export interface ChildLaunch {
  readonly command: string;
  readonly args: readonly string[];
  readonly env: NodeJS.ProcessEnv;
  readonly grantLine: string;
}

/** Plans the child for `argv` (`[command, ...args]`, never empty) behind the proxy at `url`. */
export async function planChildLaunch(
  argv: readonly [string, ...string[]],
  options: {
    readonly url: string;
    readonly state: StateDir;
    readonly grant: boolean;
    readonly env: NodeJS.ProcessEnv;
    readonly lookup: CommandLookup;
    readonly mcp?: McpLaunch;
    /** Under an owner rule the restore tools read through the proxy's routes (docs/team.md); absent: the state directory. */
    readonly gateway?: boolean;
    /** Claude Code's status line: ours, composed with the user's own command when they have one; absent: none. */
    readonly statusLine?: { readonly theirs: () => Promise<string | undefined> };
  },
): Promise<ChildLaunch> {
  const env: NodeJS.ProcessEnv = { ...options.env, ANTHROPIC_BASE_URL: options.url };
  // The user's own setting wins, whatever it is; ctxshed forwards tool_reference blocks untouched.
  if (env[TOOL_SEARCH_VAR] === undefined) env[TOOL_SEARCH_VAR] = 'true';
  // So is this: ctxshed reads the class (core/request-class.ts), the API ignores the hint headers.
  if (env[REQUEST_CLASS_VAR] === undefined) env[REQUEST_CLASS_VAR] = '1';
  const [command] = argv;
  const recognized = await recognizeClaudeCode(argv, options.lookup);
  if (recognized.kind === 'other') {
    const why = options.grant ? `: ${command} is not Claude Code, so` : ' (--no-grant):';
    return { command, args: argv.slice(1), env, grantLine: `ctxshed: no read grant${why} reading an elided file back may ask for permission` };
  }
  const self = options.mcp ?? SELF_MCP;
  const statusWords = options.statusLine === undefined ? [] : [statusLineWord(options.state.root, self, await options.statusLine.theirs())];
  const plain = (grantLine: string): ChildLaunch => {
    const [first, ...rest] = insertArgs(argv, recognized.argsStart, statusWords) as [string, ...string[]];
    return { command: first, args: rest, env, grantLine };
  };
  if (!options.grant) return plain('ctxshed: no read grant (--no-grant): reading an elided file back may ask for permission');
  const grant: Grant = claudeGrant(options.state.root, self, options.gateway === true ? options.url : undefined);
  if (grant.kind === 'none') return plain(`ctxshed: no read grant: ${grant.why}`);
  const [first, ...rest] = insertArgs(argv, recognized.argsStart, [...grant.words, ...statusWords]) as [string, ...string[]];
  return {
    command: first,
    args: rest,
    env,
    grantLine:
      options.gateway === true
        ? `ctxshed: Claude Code (${recognized.how}) may call the restore and spans tools, read through this gateway, without asking (--no-grant: not)`
        : `ctxshed: Claude Code (${recognized.how}) may read ${options.state.root}/elided/ and spans/ and call the restore and spans tools without asking (--no-grant: not)`,
  };
}
