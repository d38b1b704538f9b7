import { describe, expect, it } from 'vitest';
import { planChildLaunch } from '../../src/cli/child-launch.js';
import { layoutPaths } from '../../src/state/layout.js';
import type { CommandLookup } from '../../src/wrapper/claude-code-command.js';

const LOOKUP: CommandLookup = { which: async () => undefined, realpath: async () => undefined, readHead: async () => undefined };
const MCP = { node: '/usr/bin/node', entry: '/opt/main.js' };
const base = { url: 'http://127.0.0.1:5', state: layoutPaths('/var/st'), grant: true, lookup: LOOKUP, mcp: MCP };

describe('planChildLaunch', () => {
  it('should give Claude Code the grant right after the executable, and tool search on', async () => {
    const plan = await planChildLaunch(['claude', '-p', 'hi'], { ...base, env: { PATH: '/bin' } });
    expect(plan.command).toBe('claude');
    expect(plan.args[0]).toMatch(/^--allowedTools=Read\(\/\/var\/st\/elided\/\*\*\),/);
    expect(plan.args[1]).toMatch(/^--mcp-config=\{/);
    expect(plan.args.slice(2)).toEqual(['-p', 'hi']);
    expect(plan.env).toEqual({ PATH: '/bin', ANTHROPIC_BASE_URL: 'http://127.0.0.1:5', ENABLE_TOOL_SEARCH: 'true', CLAUDE_CODE_GATEWAY_HINT_HEADERS: '1' });
    expect(plan.grantLine).toBe(
      'ctxshed: Claude Code (the claude executable) may read /var/st/elided/ and spans/ and call the restore and spans tools without asking (--no-grant: not)',
    );
  });

  it("should keep the user's own ENABLE_TOOL_SEARCH, whatever it says", async () => {
    for (const value of ['false', 'auto:5', '']) {
      expect((await planChildLaunch(['claude'], { ...base, env: { ENABLE_TOOL_SEARCH: value } })).env['ENABLE_TOOL_SEARCH']).toBe(value);
    }
  });

  it("should keep the user's own CLAUDE_CODE_GATEWAY_HINT_HEADERS, whatever it says", async () => {
    for (const value of ['0', 'false', '']) {
      const plan = await planChildLaunch(['claude'], { ...base, env: { CLAUDE_CODE_GATEWAY_HINT_HEADERS: value } });
      expect(plan.env['CLAUDE_CODE_GATEWAY_HINT_HEADERS']).toBe(value);
    }
  });

  it('should say in one line that no grant was given, for another command and for --no-grant', async () => {
    const other = await planChildLaunch(['sh', '-c', 'x'], { ...base, env: {} });
    expect([other.command, ...other.args]).toEqual(['sh', '-c', 'x']);
    expect(other.env['ENABLE_TOOL_SEARCH']).toBe('true');
    expect(other.grantLine).toBe('ctxshed: no read grant: sh is not Claude Code, so reading an elided file back may ask for permission');
    const off = await planChildLaunch(['claude', '-p'], { ...base, grant: false, env: {} });
    expect([off.command, ...off.args]).toEqual(['claude', '-p']);
    expect(off.grantLine).toBe('ctxshed: no read grant (--no-grant): reading an elided file back may ask for permission');
    const odd = await planChildLaunch(['claude'], { ...base, state: layoutPaths('/var/st*'), env: {} });
    expect(odd.args).toEqual([]);
    expect(odd.grantLine).toMatch(/^ctxshed: no read grant: the state directory's path "\/var\/st\*" holds a character/);
  });
});
