/**
 * `ctxshed status [--follow]`: for a second terminal while a session runs. Reads the wire log and
 * the state directory, never a proxy's memory, so it works while proxies run and after they end.
 */
import type { ArgumentsCamelCase, Argv, CommandModule } from 'yargs';
import { WireLogReader } from '../report/read-wire-log.js';
import { renderStatus } from '../report/render-status.js';
import { buildStatusReport, type StatusReport } from '../report/status-report.js';
import type { StateDir } from '../state/layout.js';
import { CliError } from './cli-error.js';
import { engineSettingsOf } from '../rescue/index.js';
import { thresholdsFrom, withThresholdOptions, type ThresholdArgs } from './settings-options.js';
import { readReportInput, JSON_OPTION, reportWidth, stateForReport, warn } from './report-input.js';
import { writeStdout } from './read-input.js';
import { STATE_OPTION } from './state-option.js';
import { runningProxies } from './proxy-announce.js';
import type { ProxyFile } from '../state/proxy-file.js';
import { wholeExamples } from './help-examples.js';

interface StatusArgs extends ThresholdArgs {
  state: string | undefined;
  json: boolean;
  follow: boolean;
  interval: number;
  recent: number;
}

/** ANSI: cursor to the top left, then clear the screen (only ever sent to a terminal). */
const HOME_AND_CLEAR = '\u001b[H\u001b[2J';

export const statusCommand: CommandModule<object, StatusArgs> = {
  command: 'status',
  describe: 'The conversations active lately: fullness against the threshold, last epoch, stubs, bytes saved',
  builder: (yargs) =>
    withThresholdOptions(yargs as Argv<object>, {
      rescuePct: 'The threshold to show for conversations without an epoch (one with an epoch shows the one it latched at)',
      rescueTokens:
        "The token threshold of --rescue-pct's conversations, shown as the fullness it stands for on their window (default: 120,000 on windows over 200,000)",
    })
      .option('state', STATE_OPTION)
      .option('json', JSON_OPTION)
      .option('follow', { alias: 'f', type: 'boolean', default: false, describe: 'Keep updating until Ctrl-C' })
      .option('interval', { type: 'number', default: 2, describe: 'Seconds between updates with --follow' })
      .option('recent', { type: 'number', default: 30, describe: 'Show conversations seen within this many minutes of the last request' })
      .example(
        wholeExamples([
          ['$0 status --state state.example', 'What the example session looked like at its last request'],
          ['$0 status --follow', 'In a second terminal while `ctxshed rescue -- claude` runs; Ctrl-C to stop'],
          ['$0 status --state state.example --json', 'The same as JSON'],
        ]),
      ) as unknown as Argv<StatusArgs>,
  handler: async (args: ArgumentsCamelCase<StatusArgs>) => {
    if (!(args.interval > 0 && args.interval <= 3600)) throw new CliError(`--interval takes seconds above 0 and at most 3600, not ${args.interval}`, 2);
    if (!(args.recent > 0)) throw new CliError(`--recent takes minutes above 0, not ${args.recent}`, 2);
    // The thresholds a proxy started with these flags latches at (its mode's defaults for those left out).
    const { thresholds } = engineSettingsOf(thresholdsFrom(args)).latch;
    const state = await stateForReport(args.state);
    const reader = new WireLogReader(state.wirePath);
    const look = async (): Promise<Look> => {
      const tally = await reader.catchUp();
      const proxies = await runningProxies(state);
      const input = await readReportInput(state, tally);
      const report = buildStatusReport(tally, input.summaries, {
        recentMs: args.recent * 60_000,
        thresholds,
      });
      return { report, warnings: input.warnings, proxies };
    };
    if (!args.follow) {
      const { report, warnings, proxies } = await look();
      if (args.json) {
        await writeStdout(`${JSON.stringify({ state: state.root, now: new Date().toISOString(), proxies, ...report, warnings }, null, 2)}\n`);
        return;
      }
      warn(warnings);
      await writeStdout(renderStatus(report, state.root, Date.now(), proxies, reportWidth()));
      return;
    }
    await follow(state, look, args);
  },
};

/** One look at the state directory: the report, its warnings, and the proxies running over it. */
interface Look {
  readonly report: StatusReport;
  readonly warnings: readonly string[];
  readonly proxies: readonly ProxyFile[];
}

async function follow(state: StateDir, look: () => Promise<Look>, args: StatusArgs): Promise<void> {
  const tty = process.stdout.isTTY === true && !args.json;
  let stop: () => void = () => undefined;
  const stopped = new Promise<void>((resolve) => (stop = resolve));
  // Ctrl-C ends the loop; the process then exits 0 like any command that finished.
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  let timer: NodeJS.Timeout | undefined;
  try {
    for (let first = true; ; first = false) {
      const { report, warnings, proxies } = await look();
      const now = Date.now();
      if (args.json) {
        await writeStdout(`${JSON.stringify({ state: state.root, now: new Date(now).toISOString(), proxies, ...report, warnings })}\n`);
      } else {
        const text = renderStatus(report, state.root, now, proxies, reportWidth()) + warnings.map((w) => `note: ${w}\n`).join('');
        // A terminal gets the view redrawn in place; a pipe or file gets one block per interval.
        await writeStdout(tty ? `${HOME_AND_CLEAR}${text}` : `${first ? '' : '\n'}${text}`);
      }
      const slept = await Promise.race([
        new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), args.interval * 1000))),
        stopped.then(() => false),
      ]);
      if (!slept) break;
    }
  } finally {
    clearTimeout(timer);
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  }
}
