import { describe, expect, it } from 'vitest';
import { claudeGrant } from '../../src/wrapper/claude-grant.js';

const MCP = { node: '/usr/bin/node', entry: '/opt/ctxshed/dist/src/cli/main.js' };

describe('claudeGrant', () => {
  it('should allow Read of elided/ and spans/ by absolute (//) rules and the two MCP tools, and register the server', () => {
    const grant = claudeGrant('/home/me/.local/state/ctxshed', MCP);
    expect(grant).toEqual({
      kind: 'grant',
      rules: [
        'Read(//home/me/.local/state/ctxshed/elided/**)',
        'Read(//home/me/.local/state/ctxshed/spans/**)',
        'mcp__ctxshed__restore',
        'mcp__ctxshed__spans',
      ],
      words: [
        '--allowedTools=Read(//home/me/.local/state/ctxshed/elided/**),Read(//home/me/.local/state/ctxshed/spans/**),mcp__ctxshed__restore,mcp__ctxshed__spans',
        '--mcp-config={"mcpServers":{"ctxshed":{"type":"stdio","command":"/usr/bin/node","args":["/opt/ctxshed/dist/src/cli/main.js","mcp","--state","/home/me/.local/state/ctxshed"]}}}',
      ],
    });
  });

  it('should behind a gateway allow the two MCP tools alone, read through the gateway, and no Read of its disk', () => {
    const grant = claudeGrant('/srv/ctxshed', MCP, 'http://10.0.0.5:8787');
    expect(grant).toEqual({
      kind: 'grant',
      rules: ['mcp__ctxshed__restore', 'mcp__ctxshed__spans'],
      words: [
        '--allowedTools=mcp__ctxshed__restore,mcp__ctxshed__spans',
        '--mcp-config={"mcpServers":{"ctxshed":{"type":"stdio","command":"/usr/bin/node","args":["/opt/ctxshed/dist/src/cli/main.js","mcp","--gateway","http://10.0.0.5:8787"]}}}',
      ],
    });
  });

  it('should give no grant for a path a rule cannot hold, saying why', () => {
    expect(claudeGrant('/tmp/a(b)', MCP)).toMatchObject({ kind: 'none', why: expect.stringContaining('a character a permission rule cannot') });
    expect(claudeGrant('/tmp/*', MCP).kind).toBe('none');
    expect(claudeGrant('relative/dir', MCP).kind).toBe('none');
  });

  it('should keep spaces and commas, which Claude Code reads inside a rule', () => {
    expect(claudeGrant('/tmp/a b,c', MCP)).toMatchObject({
      rules: ['Read(//tmp/a b,c/elided/**)', 'Read(//tmp/a b,c/spans/**)', 'mcp__ctxshed__restore', 'mcp__ctxshed__spans'],
    });
  });
});
