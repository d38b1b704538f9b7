/** `ctxshed mcp`: the restore tools as a stdio MCP server, for the agent's own client to start. */
import fs from 'node:fs/promises';
import type { ArgumentsCamelCase, Argv, CommandModule } from 'yargs';
import { gatewayHeaders, gatewaySource } from '../mcp/gateway-client.js';
import type { ToolSource } from '../mcp/tool-source.js';
import { layoutPaths, type StateDir } from '../state/layout.js';
import { CliError } from './cli-error.js';
import { packageVersion } from './package-version.js';
import { exportedStoreFor, OWNER_OPTION, ownerDirFrom, ownerFrom, STATE_OPTION, stateDirFrom, STORE_OPTION } from './state-option.js';
import { isLoopbackHost } from '../proxy/loopback.js';
import { OWNER_KEY_HEADER, readOwnerKey } from '../state/owner-key.js';
import { wholeExamples } from './help-examples.js';

interface McpArgs {
  state: string | undefined;
  store?: string | undefined;
  owner?: string | undefined;
  gateway: string | undefined;
  gatewayHeader: string[] | undefined;
}

export const mcpCommand: CommandModule<object, McpArgs> = {
  command: 'mcp',
  describe: 'Serve the restore and spans tools over MCP on stdio (rescue registers it for Claude Code)',
  builder: (yargs) =>
    (yargs as Argv<object>)
      .option('state', STATE_OPTION)
      .option('store', {
        ...STORE_OPTION,
        describe: 'Serve what a Postgres store holds (as of the start: a snapshot written to a private temporary directory)',
      })
      .option('owner', { ...OWNER_OPTION, describe: "With --state or --store: serve one owner's texts (the owner id an owner rule gave them, docs/team.md)" })
      .option('gateway', {
        type: 'string',
        describe:
          "Read through a ctxshed gateway's restore routes instead of a state directory, as the owner of this agent's credential ($ANTHROPIC_API_KEY, $ANTHROPIC_AUTH_TOKEN or $OPENAI_API_KEY); to a ctxshed on this machine, with the owner key of --state's directory too (docs/team.md)",
      })
      .option('gateway-header', {
        type: 'string',
        array: true,
        describe: 'With --gateway: send header NAME with the value of environment variable ENV (NAME=ENV), for a gateway run with --owner-header',
      })
      .example(
        wholeExamples([
          ['$0 mcp --state state.example', 'Serve restore and spans on stdin and stdout until stdin ends (an MCP client starts it)'],
          ['$0 mcp --gateway https://ctxshed.team.example', 'Serve restore and spans from the team gateway, as the owner of $ANTHROPIC_API_KEY'],
        ]),
      ) as unknown as Argv<McpArgs>,
  handler: async (args: ArgumentsCamelCase<McpArgs>) => {
    if (args.gateway !== undefined && args.store !== undefined) throw new CliError('give --gateway or --store, not both', 2);
    if (args.gateway !== undefined && args.owner !== undefined)
      throw new CliError('--owner reads a state directory or a store; over --gateway the owner is your credential', 2);
    const source =
      args.gateway === undefined
        ? await localState(args.state, args.store, ownerFrom(args.owner))
        : gatewayOf(args.gateway, args.gatewayHeader ?? [], await ownerKeyFor(args.gateway, args.state));
    // Loaded here, not at the top: every other command would pay for the SDK at start.
    const [{ createMcpServer }, { serveStdio }] = await Promise.all([import('../mcp/mcp-server.js'), import('../mcp/serve-stdio.js')]);
    await serveStdio(createMcpServer(source, await packageVersion()));
  },
};

async function localState(flag: string | undefined, store: string | undefined, owner: string): Promise<StateDir> {
  const exported = await exportedStoreFor(store, flag, owner);
  if (exported !== undefined) return exported;
  const dir = ownerDirFrom(flag, owner);
  // Read-only: nothing is created. Stubs name the real path, so look there.
  return layoutPaths(await fs.realpath(dir).catch(() => dir));
}

/**
 * The owner key to send a ctxshed on this machine (docs/team.md "Who may restore"): the one in
 * the state directory (`--state`, else the default), for a gateway URL on loopback only; a key
 * never leaves the machine. Undefined when there is none, or it cannot be read (another user's).
 */
async function ownerKeyFor(gateway: string, flag: string | undefined): Promise<string | undefined> {
  let host: string;
  try {
    host = new URL(gateway).host;
  } catch {
    return undefined; // gatewayOf names the bad URL
  }
  if (!isLoopbackHost(host)) return undefined;
  return readOwnerKey(stateDirFrom(flag)).catch(() => undefined);
}

/** The tools over a gateway; a usage error for a bad URL, a bad NAME=ENV or an unset variable. */
function gatewayOf(gateway: string, headerFlags: readonly string[], ownerKey: string | undefined): ToolSource {
  let url: URL;
  try {
    url = new URL(gateway);
  } catch {
    throw new CliError(`--gateway takes a URL, not ${JSON.stringify(gateway)}`, 2);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new CliError(`--gateway must be http:// or https://, not ${url.protocol}`, 2);
  if (url.username !== '' || url.password !== '')
    throw new CliError('--gateway takes no credentials in the URL: they would be in argv; use the environment', 2);
  const fromEnv = headerFlags.map((flag) => {
    const m = /^([A-Za-z0-9!#$%&'*+.^_`|~-]+)=([A-Za-z_][A-Za-z0-9_]*)$/.exec(flag);
    if (m === null)
      throw new CliError(`--gateway-header takes NAME=ENV (a header and the environment variable that holds its value), not ${JSON.stringify(flag)}`, 2);
    return { name: m[1] as string, env: m[2] as string };
  });
  try {
    const headers = gatewayHeaders(process.env, fromEnv);
    return gatewaySource({ url, headers: ownerKey === undefined ? headers : { ...headers, [OWNER_KEY_HEADER]: ownerKey } });
  } catch (error) {
    throw new CliError((error as Error).message, 2);
  }
}
