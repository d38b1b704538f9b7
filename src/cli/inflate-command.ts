/** `ctxshed inflate BODY.json`: the original request body, rebuilt from a rewritten one and the state directory. */
import type { ArgumentsCamelCase, Argv, CommandModule } from 'yargs';
import { layoutPaths } from '../state/layout.js';
import { InflateError, inflateFromState } from '../state/inflate-from-state.js';
import { CliError } from './cli-error.js';
import { readInput, writeStdout } from './read-input.js';
import { exportedStoreFor, OWNER_OPTION, ownerDirFrom, ownerFrom, STATE_OPTION, STORE_OPTION } from './state-option.js';
import { wholeExamples } from './help-examples.js';

interface InflateArgs {
  body: string;
  state: string | undefined;
  store?: string | undefined;
  owner?: string | undefined;
}

export const inflateCommand: CommandModule<object, InflateArgs> = {
  command: 'inflate <body>',
  describe: 'Rebuild the original request body from a rewritten one, byte for byte',
  builder: (yargs) =>
    (yargs as Argv<object>)
      .positional('body', { type: 'string', demandOption: true, describe: 'A rewritten request body (JSON file, or - for stdin)' })
      .option('state', STATE_OPTION)
      .option('store', STORE_OPTION)
      .option('owner', OWNER_OPTION)
      .example(wholeExamples([['$0 inflate small.json --state /tmp/st > original.json', 'Put every elided tool result back']])) as unknown as Argv<InflateArgs>,
  handler: async (args: ArgumentsCamelCase<InflateArgs>) => {
    const body = await readInput(args.body);
    try {
      const owner = ownerFrom(args.owner);
      const state = (await exportedStoreFor(args.store, args.state, owner)) ?? layoutPaths(ownerDirFrom(args.state, owner));
      const inflated = await inflateFromState(state, body);
      await writeStdout(inflated.body);
    } catch (error) {
      if (error instanceof InflateError) throw new CliError(`${args.body}: ${error.message}`);
      throw error;
    }
  },
};
