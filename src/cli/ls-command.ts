/** `ctxshed ls`: one line per conversation: which, when, how full, what was elided. */
import type { ArgumentsCamelCase, Argv, CommandModule } from 'yargs';
import { readWireTally } from '../report/read-wire-log.js';
import { renderLs } from '../report/render-ls.js';
import { conversationJson } from '../report/report-json.js';
import { readReportInput, JSON_OPTION, reportWidth, stateForReport, warn } from './report-input.js';
import { writeStdout } from './read-input.js';
import { OWNER_OPTION, ownerFrom, STATE_OPTION, STORE_OPTION } from './state-option.js';
import { wholeExamples } from './help-examples.js';

interface LsArgs {
  state: string | undefined;
  store?: string | undefined;
  owner?: string | undefined;
  json: boolean;
}

export const lsCommand: CommandModule<object, LsArgs> = {
  command: 'ls',
  describe: 'List the conversations: prompt, last seen, fullness, epochs, what was elided, requests',
  builder: (yargs) =>
    (yargs as Argv<object>)
      .option('state', STATE_OPTION)
      .option('store', STORE_OPTION)
      .option('owner', OWNER_OPTION)
      .option('json', JSON_OPTION)
      .example(
        wholeExamples([
          ['$0 ls --state state.example', 'The example state directory, most recently seen first'],
          ['$0 ls --state state.example --json', 'The same as JSON'],
        ]),
      ) as unknown as Argv<LsArgs>,
  handler: async (args: ArgumentsCamelCase<LsArgs>) => {
    const state = await stateForReport(args.state, args.store, ownerFrom(args.owner));
    const tally = await readWireTally(state.wirePath);
    const input = await readReportInput(state, tally);
    if (args.json) {
      const report = { state: state.root, conversations: input.summaries.map(conversationJson), sideCalls: tally.sideCalls.requests, warnings: input.warnings };
      await writeStdout(`${JSON.stringify(report, null, 2)}\n`);
      return;
    }
    warn(input.warnings);
    await writeStdout(renderLs(input.summaries, Date.now(), { sideCalls: tally.sideCalls.requests, unreadableLines: tally.unreadable, width: reportWidth() }));
  },
};
