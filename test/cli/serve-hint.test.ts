import { describe, expect, it } from 'vitest';
import { serveHint, shellQuote } from '../../src/cli/serve-hint.js';
import { layoutPaths } from '../../src/state/layout.js';

describe('serveHint', () => {
  it('should print the variables to set, then the claude command line rescue would run', () => {
    const lines = serveHint('http://127.0.0.1:8787', layoutPaths('/var/st'), { node: '/usr/bin/node', entry: '/opt/main.js' });
    expect(lines).toEqual([
      'ANTHROPIC_BASE_URL=http://127.0.0.1:8787',
      'ENABLE_TOOL_SEARCH=true',
      `# Claude Code with the read grant and the restore tools: ANTHROPIC_BASE_URL=http://127.0.0.1:8787 ENABLE_TOOL_SEARCH=true claude ` +
        `'--allowedTools=Read(//var/st/elided/**),Read(//var/st/spans/**),mcp__ctxshed__restore,mcp__ctxshed__spans' ` +
        `'--mcp-config={"mcpServers":{"ctxshed":{"type":"stdio","command":"/usr/bin/node","args":["/opt/main.js","mcp","--state","/var/st"]}}}'`,
    ]);
  });

  it('should register the restore tools through the proxy with the owner key for a store with no path the agent reads (Postgres, no owner rule)', () => {
    const lines = serveHint('http://127.0.0.1:8787', layoutPaths('/var/st'), { node: '/usr/bin/node', entry: '/opt/main.js' }, 'owner-key');
    expect(lines[2]).toBe(
      `# Claude Code with the read grant and the restore tools: ANTHROPIC_BASE_URL=http://127.0.0.1:8787 ENABLE_TOOL_SEARCH=true claude ` +
        `--allowedTools=mcp__ctxshed__restore,mcp__ctxshed__spans ` +
        `'--mcp-config={"mcpServers":{"ctxshed":{"type":"stdio","command":"/usr/bin/node","args":["/opt/main.js","mcp","--gateway","http://127.0.0.1:8787","--state","/var/st"]}}}'`,
    );
  });
});

describe('shellQuote', () => {
  it('should leave plain words alone and single-quote the rest, quotes included', () => {
    expect(shellQuote('--x=a/b')).toBe('--x=a/b');
    expect(shellQuote("it's (x)")).toBe(`'it'\\''s (x)'`);
  });
});
