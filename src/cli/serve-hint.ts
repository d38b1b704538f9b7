/** What `serve` prints on stdout: the environment to set, and the Claude Code command line `rescue` would run. */
import type { StateDir } from '../state/layout.js';
import { claudeGrant, type McpLaunch } from '../wrapper/claude-grant.js';
import { shellQuote } from '../wrapper/shell-quote.js';
import { SELF_MCP, TOOL_SEARCH_VAR } from './child-launch.js';

export { shellQuote } from '../wrapper/shell-quote.js';

/**
 * Lines for stdout: `NAME=value` lines a shell can source (the `#` line is a comment to it), then
 * the same grant `rescue` gives, as a command a person can paste.
 */
export function serveHint(url: string, state: StateDir, mcp: McpLaunch = SELF_MCP, gateway = false): string[] {
  const env = [`ANTHROPIC_BASE_URL=${url}`, `${TOOL_SEARCH_VAR}=true`];
  // Behind a gateway the restore tools read through its routes (docs/team.md).
  const grant = claudeGrant(state.root, mcp, gateway ? url : undefined);
  const claude =
    grant.kind === 'grant'
      ? `# Claude Code with the read grant and the restore tools: ${env.join(' ')} claude ${grant.words.map(shellQuote).join(' ')}`
      : `# no read grant for Claude Code: ${grant.why}`;
  return [...env, claude];
}
