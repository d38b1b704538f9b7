/** What `serve` prints on stdout: the environment to set, and the Claude Code command line `rescue` would run. */
import type { StateDir } from '../state/layout.js';
import { claudeGrant, type McpLaunch } from '../wrapper/claude-grant.js';
import { shellQuote } from '../wrapper/shell-quote.js';
import { SELF_MCP, TOOL_SEARCH_VAR } from './child-launch.js';

export { shellQuote } from '../wrapper/shell-quote.js';

/**
 * How the restore tools reach the originals: the state directory's files (`files`), the proxy's
 * routes as the owner its rule finds (`owner-rule`), or the routes with the state directory's
 * owner key, for a store whose originals are on no disk the agent reads (`owner-key`: Postgres
 * with no owner rule).
 */
export type RestoreWay = 'files' | 'owner-rule' | 'owner-key';

/**
 * Lines for stdout: `NAME=value` lines a shell can source (the `#` line is a comment to it), then
 * the same grant `rescue` gives, as a command a person can paste.
 */
export function serveHint(url: string, state: StateDir, mcp: McpLaunch = SELF_MCP, way: RestoreWay = 'files'): string[] {
  const env = [`ANTHROPIC_BASE_URL=${url}`, `${TOOL_SEARCH_VAR}=true`];
  // Behind a gateway, or over a store with no path, the restore tools read through the routes (docs/team.md).
  const grant = claudeGrant(state.root, mcp, way === 'files' ? undefined : url, way === 'owner-key');
  const claude =
    grant.kind === 'grant'
      ? `# Claude Code with the read grant and the restore tools: ${env.join(' ')} claude ${grant.words.map(shellQuote).join(' ')}`
      : `# no read grant for Claude Code: ${grant.why}`;
  return [...env, claude];
}
