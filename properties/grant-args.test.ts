/**
 * The grant never changes what the user's own arguments mean: `rescue` inserts whole
 * `--name=value` words right after Claude Code's executable (or script, or npx package) and
 * never reorders, drops or alters a user argument. Claude Code's parser was checked against these
 * words separately (test/real-client/grant-parser.test.ts).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { planChildLaunch } from '../src/cli/child-launch.js';
import { layoutPaths } from '../src/state/layout.js';
import type { CommandLookup } from '../src/wrapper/claude-code-command.js';
import { claudeGrant } from '../src/wrapper/claude-grant.js';

const MCP = { node: '/usr/bin/node', entry: '/opt/ctxshed/dist/src/cli/main.js' };
const LOOKUP: CommandLookup = { which: async (c) => (c.includes('/') ? c : `/usr/bin/${c}`), realpath: async (f) => f, readHead: async () => undefined };

// Words a user types to Claude Code: its variadic and optional-value flags, `--`, prompts, anything.
const wordArb = fc.oneof(
  fc.constantFrom(
    '--allowedTools',
    '--allowed-tools',
    '--mcp-config',
    '--add-dir',
    '--disallowedTools',
    '--tools',
    '--betas',
    '--resume',
    '-r',
    '-c',
    '--continue',
    '-p',
    '--print',
    '--',
    '-',
    '--model',
    'sonnet',
    'mcp',
    'list',
    '--allowedTools=Bash',
    'Read',
    'Bash(git *)',
    'fix the bug',
    '',
  ),
  fc.string({ maxLength: 12 }),
);
const userArgsArb = fc.array(wordArb, { maxLength: 12 });
const launcherArb = fc.constantFrom<string[]>(
  ['claude'],
  ['/home/me/.local/bin/claude'],
  ['node', '/x/node_modules/@anthropic-ai/claude-code/cli.js'],
  ['npx', '-y', '@anthropic-ai/claude-code@2.1.197'],
);
const stateArb = fc.constantFrom('/var/st', '/home/me/.local/state/ctxshed', '/tmp/a b,c', '/x/y z');

describe('the grant on a command line', () => {
  it('should keep every user argument, in order and unchanged, with whole --name=value words right after the launcher', async () => {
    await fc.assert(
      fc.asyncProperty(launcherArb, userArgsArb, stateArb, async (launcher, user, root) => {
        const argv = [...launcher, ...user] as [string, ...string[]];
        const plan = await planChildLaunch(argv, { url: 'http://127.0.0.1:1', state: layoutPaths(root), grant: true, env: {}, lookup: LOOKUP, mcp: MCP });
        const out = [plan.command, ...plan.args];
        const grant = claudeGrant(root, MCP);
        if (grant.kind !== 'grant') throw new Error('expected a grant');

        expect(out.slice(0, launcher.length)).toEqual(launcher);
        expect(out.slice(launcher.length, launcher.length + grant.words.length)).toEqual(grant.words);
        expect(out.slice(launcher.length + grant.words.length)).toEqual(user);
        for (const word of grant.words) expect(word).toMatch(/^--(allowedTools|mcp-config)=\S/);
      }),
    );
  });

  it('should leave the command line of any other command exactly as given', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('sh', 'codex', '/usr/bin/env', 'claude-ish', 'npx'), userArgsArb, async (command, user) => {
        fc.pre(!(command === 'npx' && user.some((w) => w.startsWith('@anthropic-ai/claude-code'))));
        const plan = await planChildLaunch([command, ...user], {
          url: 'http://127.0.0.1:1',
          state: layoutPaths('/var/st'),
          grant: true,
          env: {},
          lookup: LOOKUP,
          mcp: MCP,
        });
        expect([plan.command, ...plan.args]).toEqual([command, ...user]);
      }),
    );
  });

  it('should name only <state>/elided/ and <state>/spans/, or give no grant at all, for any state path', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 30 }), (tail) => {
        const root = `/s/${tail}`;
        const grant = claudeGrant(root, MCP);
        if (grant.kind === 'none') return;
        expect(grant.rules.slice(0, 2)).toEqual([`Read(/${root.replace(/\/+$/, '')}/elided/**)`, `Read(/${root.replace(/\/+$/, '')}/spans/**)`]);
        // The path in a rule holds no glob, parenthesis, escape or control character: it means itself.
        expect(root).not.toMatch(/[()*?[\]{}\\\u0000-\u001f\u007f]/);
        const config = JSON.parse(grant.words[1]!.slice('--mcp-config='.length)) as { mcpServers: { ctxshed: { args: string[] } } };
        expect(config.mcpServers.ctxshed.args).toEqual([MCP.entry, 'mcp', '--state', root]);
      }),
    );
  });
});
