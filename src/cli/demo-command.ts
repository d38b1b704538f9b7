/** `ctxshed demo`: a scripted session through the real proxy, offline, in a few seconds. */
import type { ArgumentsCamelCase, Argv, CommandModule } from 'yargs';
import { formatDemoEvent, formatDemoSummary } from '../demo/format-demo.js';
import { DEFAULT_DEMO_TURNS, DEFAULT_DEMO_WINDOW, runDemo } from '../demo/run-demo.js';
import { StateError } from '../state/state-error.js';
import { currentSelfCommand } from './self-command.js';
import { CliError } from './cli-error.js';
import { proxyConfigFrom } from './proxy-options.js';
import { withSettingsOptions, type SettingsArgs } from './settings-options.js';
import { writeStdout } from './read-input.js';
import { errorText } from '../errors.js';
import { wholeExamples } from './help-examples.js';

interface DemoArgs extends SettingsArgs {
  turns: number;
  state: string | undefined;
  json: boolean;
}

export const demoCommand: CommandModule<object, DemoArgs> = {
  command: 'demo',
  describe: 'Watch rescue work: a scripted agent session through the real proxy (no API key, no network)',
  builder: (yargs) =>
    withSettingsOptions(yargs as Argv<object>, {
      mode: true,
      window: { describe: 'Context window in tokens (small, so the demo crosses it quickly)', default: DEFAULT_DEMO_WINDOW },
    })
      .option('turns', { type: 'number', default: DEFAULT_DEMO_TURNS, describe: 'Requests the scripted client sends' })
      .option('state', { type: 'string', describe: 'State directory (default: a fresh one under the temp dir, printed at the end)' })
      .option('json', { type: 'boolean', default: false, describe: 'Print one JSON report at the end instead of the running display' })
      .example(
        wholeExamples([
          ['$0 demo', '40 turns, rescue at 55% of a 40,000-token window'],
          ['$0 demo --mode shed', 'The same session in shed mode: a span of whole old messages becomes one stub'],
          ['$0 demo --turns 80 --rescue-pct 60 --state /tmp/demo-state', 'Longer, earlier, and keep the state where you say'],
        ]),
      ) as unknown as Argv<DemoArgs>,
  handler: async (args: ArgumentsCamelCase<DemoArgs>) => {
    if (!Number.isInteger(args.turns) || args.turns < 1) throw new CliError(`--turns takes a whole number >= 1, not ${String(args.turns)}`, 2);
    // The same configuration `rescue` builds from the same flags; the demo only swaps the upstream.
    const config = proxyConfigFrom({ ...args, upstream: undefined, port: 0 }, {});
    const print = args.json ? () => undefined : (lines: string[]) => process.stdout.write(`${lines.join('\n')}\n`);
    let report: Awaited<ReturnType<typeof runDemo>>;
    try {
      report = await runDemo({
        turns: args.turns,
        config,
        ...(args.state === undefined ? {} : { stateDir: args.state }),
        onEvent: (event) => print(formatDemoEvent(event)),
        cli: currentSelfCommand(),
      });
    } catch (error) {
      if (error instanceof StateError) throw new CliError(error.message);
      throw new CliError(`demo failed: ${errorText(error)}`);
    }
    await writeStdout(args.json ? `${JSON.stringify(report, null, 2)}\n` : `${formatDemoSummary(report).join('\n')}\n`);
    if (!report.verify.ok) process.exitCode = 1;
  },
};
