/** `ctxshed mcp`: the restore tools as a stdio MCP server, for the agent's own client to start. */
import fs from 'node:fs/promises';
import type { ArgumentsCamelCase, Argv, CommandModule } from 'yargs';
import { layoutPaths } from '../state/layout.js';
import { packageVersion } from './package-version.js';
import { exportedStoreFor, STATE_OPTION, STORE_OPTION, stateDirFrom } from './state-option.js';

interface McpArgs {
  state: string | undefined;
  store?: string | undefined;
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
      .example(
        '$0 mcp --state state.example',
        'Serve restore and spans on stdin and stdout until stdin ends (an MCP client starts it)',
      ) as unknown as Argv<McpArgs>,
  handler: async (args: ArgumentsCamelCase<McpArgs>) => {
    const dir = stateDirFrom(args.state);
    // Read-only: nothing is created. Stubs name the real path, so look there.
    const state = (await exportedStoreFor(args.store, args.state)) ?? layoutPaths(await fs.realpath(dir).catch(() => dir));
    // Loaded here, not at the top: every other command would pay for the SDK at start.
    const [{ createMcpServer }, { serveStdio }] = await Promise.all([import('../mcp/mcp-server.js'), import('../mcp/serve-stdio.js')]);
    await serveStdio(createMcpServer(state, await packageVersion()));
  },
};
