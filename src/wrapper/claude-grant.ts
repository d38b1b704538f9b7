/**
 * The grant `rescue` gives Claude Code: its Read tool may open `<state>/elided/**` and
 * `<state>/spans/**` without asking, and the ctxshed MCP server's `restore` and `spans` tools are
 * registered and allowed. Nothing wider: not `--add-dir` (which also grants edits), not sealed/.
 *
 * The words are `--name=value`, each one whole: checked against Claude Code 2.1.197's parser
 * (docs/rescue.md, "The grant"), a `--flag=value` word takes no following word even for its
 * variadic options (`--allowedTools`, `--mcp-config`), and nothing before it can take it, since
 * it goes right after the executable. A rule for an absolute path starts with `//`.
 */

/** Claude Code's names for the MCP tools, `mcp__<server>__<tool>`. */
export const MCP_TOOL_RULES = ['mcp__ctxshed__restore', 'mcp__ctxshed__spans'] as const;

/** How to start `ctxshed mcp` for one state directory: the same node and entry point as this ctxshed. */
export interface McpLaunch {
  readonly node: string;
  readonly entry: string;
}

/** The grant's words, or why none can be given for this state directory. */
export type Grant =
  | { readonly kind: 'grant'; readonly words: readonly string[]; readonly rules: readonly string[] }
  | { readonly kind: 'none'; readonly why: string };

// Characters a permission rule treats as syntax (glob, parentheses, escapes) or a line cannot hold.
// eslint-disable-next-line no-control-regex
const UNSAFE_IN_RULE = /[()*?[\]{}\\\u0000-\u001f\u007f]/;

/**
 * The grant for the state directory `root` (absolute, real path). Behind a gateway (`gateway`, the
 * proxy's URL under an owner rule, or a proxy on a store with no path the agent can read,
 * docs/team.md) the stubs name no file: the grant is the restore tools alone, read through the
 * proxy's routes (`ctxshed mcp --gateway`); with `withKey`, as the holder of `root`'s owner key
 * (`--state root`: a proxy with no owner rule asks for it, docs/team.md "Who may restore").
 */
export function claudeGrant(root: string, mcp: McpLaunch, gateway?: string, withKey = false): Grant {
  if (gateway !== undefined) {
    const args = [mcp.entry, 'mcp', '--gateway', gateway, ...(withKey ? ['--state', root] : [])];
    const config = { mcpServers: { ctxshed: { type: 'stdio', command: mcp.node, args } } };
    return { kind: 'grant', rules: [...MCP_TOOL_RULES], words: [`--allowedTools=${MCP_TOOL_RULES.join(',')}`, `--mcp-config=${JSON.stringify(config)}`] };
  }
  if (!root.startsWith('/')) return { kind: 'none', why: `the state directory ${root} is not an absolute path` };
  if (UNSAFE_IN_RULE.test(root)) return { kind: 'none', why: `the state directory's path ${JSON.stringify(root)} holds a character a permission rule cannot` };
  const base = root.replace(/\/+$/, '');
  const rules = [`Read(/${base}/elided/**)`, `Read(/${base}/spans/**)`, ...MCP_TOOL_RULES];
  const config = { mcpServers: { ctxshed: { type: 'stdio', command: mcp.node, args: [mcp.entry, 'mcp', '--state', root] } } };
  return { kind: 'grant', rules, words: [`--allowedTools=${rules.join(',')}`, `--mcp-config=${JSON.stringify(config)}`] };
}
