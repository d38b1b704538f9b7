/** `ctxshed stats`: requests, pass-throughs by reason, and what was elided, per conversation and overall. */
import type { ArgumentsCamelCase, Argv, CommandModule } from 'yargs';
import { readWireTally } from '../report/read-wire-log.js';
import { renderStats } from '../report/render-stats.js';
import { buildStatsReport } from '../report/stats-report.js';
import { readReportInput, JSON_OPTION, reportWidth, stateForReport, warn } from './report-input.js';
import { writeStdout } from './read-input.js';
import { OWNER_OPTION, ownerFrom, STATE_OPTION, STORE_OPTION } from './state-option.js';
import { wholeExamples } from './help-examples.js';

interface StatsArgs {
  state: string | undefined;
  store?: string | undefined;
  owner?: string | undefined;
  json: boolean;
}

export const statsCommand: CommandModule<object, StatsArgs> = {
  command: 'stats',
  describe: 'Totals from the wire log: requests, pass-throughs by reason, bytes and tokens elided (each shed once)',
  builder: (yargs) =>
    (yargs as Argv<object>)
      .option('state', STATE_OPTION)
      .option('store', STORE_OPTION)
      .option('owner', OWNER_OPTION)
      .option('json', JSON_OPTION)
      .example(
        wholeExamples([
          ['$0 stats --state state.example', 'Totals of the example state directory'],
          ['$0 stats --state state.example --json', 'The same as JSON'],
        ]),
      ) as unknown as Argv<StatsArgs>,
  handler: async (args: ArgumentsCamelCase<StatsArgs>) => {
    const state = await stateForReport(args.state, args.store, ownerFrom(args.owner));
    const tally = await readWireTally(state.wirePath);
    const input = await readReportInput(state, tally);
    const report = buildStatsReport(tally, input.summaries);
    if (args.json) {
      await writeStdout(`${JSON.stringify({ state: state.root, ...report, warnings: input.warnings }, null, 2)}\n`);
      return;
    }
    warn(input.warnings);
    await writeStdout(renderStats(report, state.root, reportWidth()));
  },
};
