/** `ctxshed demo`: a scripted session through the real proxy, offline, in a few seconds. */
import type { ArgumentsCamelCase, Argv, CommandModule } from 'yargs';
import { DEFAULT_ENGINE_SETTINGS } from '../rescue/index.js';
import { formatDemoEvent, formatDemoSummary } from '../demo/format-demo.js';
import { DEFAULT_DEMO_TURNS, DEFAULT_DEMO_WINDOW, runDemo } from '../demo/run-demo.js';
import { StateError } from '../state/state-error.js';
import { currentSelfCommand } from './self-command.js';
import { CliError } from './cli-error.js';
import { DEFAULT_RESCUE_PCT, proxyConfigFrom } from './proxy-options.js';
import { writeStdout } from './read-input.js';
import { errorText } from '../errors.js';

interface DemoArgs {
  turns: number;
  state: string | undefined;
  rescuePct: number;
  window: number;
  keepRecent: number;
  minBytes: number;
  mode: string;
  horizon: number | undefined;
  json: boolean;
}

export const demoCommand: CommandModule<object, DemoArgs> = {
  command: 'demo',
  describe: 'Watch rescue work: a scripted agent session through the real proxy (no API key, no network)',
  builder: (yargs) =>
    (yargs as Argv<object>)
      .option('turns', { type: 'number', default: DEFAULT_DEMO_TURNS, describe: 'Requests the scripted client sends' })
      .option('state', { type: 'string', describe: 'State directory (default: a fresh one under the temp dir, printed at the end)' })
      .option('rescue-pct', { type: 'number', default: DEFAULT_RESCUE_PCT, describe: 'Latch an epoch when the conversation is this full (% of the window)' })
      .option('window', { type: 'number', default: DEFAULT_DEMO_WINDOW, describe: 'Context window in tokens (small, so the demo crosses it quickly)' })
      .option('keep-recent', { type: 'number', default: DEFAULT_ENGINE_SETTINGS.policy.keepRecent, describe: 'Never elide the N newest tool results' })
      .option('min-bytes', { type: 'number', default: DEFAULT_ENGINE_SETTINGS.policy.minBytes, describe: 'Elide only tool results whose text is over N bytes' })
      .option('mode', {
        type: 'string',
        default: 'rescue',
        describe: 'What an epoch freezes: old tool results (rescue) or a span of whole old messages (shed)',
      })
      .option('horizon', { type: 'number', describe: 'Shed mode: turns a cache re-write must pay back within (default: as many as the session has had)' })
      .option('json', { type: 'boolean', default: false, describe: 'Print one JSON report at the end instead of the running display' })
      .example('$0 demo', '40 turns, rescue at 70% of a 40,000-token window')
      .example('$0 demo --mode shed', 'The same session in shed mode: a span of whole old messages becomes one stub')
      .example('$0 demo --turns 80 --rescue-pct 60 --state /tmp/demo-state', 'Longer, earlier, and keep the state where you say') as unknown as Argv<DemoArgs>,
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
