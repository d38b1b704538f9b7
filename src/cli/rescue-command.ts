/** `ctxshed rescue -- COMMAND ...`: run COMMAND with the proxy in front of its API calls, and be COMMAND. */
import type { ArgumentsCamelCase, Argv, CommandModule } from 'yargs';
import { startProxy, type RunningProxy } from '../proxy/start-proxy.js';
import type { StateDir } from '../state/layout.js';
import { openStateDir } from '../state/open-state-dir.js';
import { exitLike } from '../wrapper/exit-like.js';
import { systemLookup } from '../wrapper/command-lookup.js';
import { runChild } from '../wrapper/run-child.js';
import { planChildLaunch } from './child-launch.js';
import { CliError } from './cli-error.js';
import { bannerLine, proxyConfigFrom, withProxyOptions, type ProxyArgs } from './proxy-options.js';
import { stateDirFrom } from './state-option.js';
import { errorText } from '../errors.js';
import { codexWindowLine } from './codex-window.js';
import { codexLaunch, type CodexLaunch } from './codex-launch.js';
import { CODEX_GRANT_LINE, CODEX_SHED_LINE } from './codex-target.js';

interface RescueArgs extends ProxyArgs {
  strict: boolean;
  grant: boolean;
  '--'?: Array<string | number>;
}

/** After the child ends, in-flight requests get this long to finish before ctxshed exits anyway. */
export const SHUTDOWN_GRACE_MS = 5000;

export const rescueCommand: CommandModule<object, RescueArgs> = {
  command: 'rescue',
  describe: 'Run a command (e.g. claude) with the rescue proxy in front of its API calls',
  builder: (yargs) =>
    withProxyOptions(yargs as Argv<object>)
      .option('strict', { type: 'boolean', default: false, describe: 'Refuse to run the command if the proxy cannot start' })
      .option('grant', {
        type: 'boolean',
        default: true,
        describe: 'Let Claude Code read <state>/elided/ and use the restore tools without asking (--no-grant: not)',
      })
      .parserConfiguration({ 'populate--': true })
      .usage('$0 rescue [options] -- COMMAND [ARGS...]')
      .example('$0 rescue -- claude', 'Claude Code with rescue at 70% of the window')
      .example('$0 rescue --no-grant -- claude', 'The same, without the read grant: Claude Code asks before reading elided text back')
      .example('$0 rescue --rescue-pct 60 --state ~/ctx -- claude --resume', 'Resume a session; its epochs come back from the state directory')
      .example('$0 rescue --mode shed -- claude', 'Shed spans of old messages instead, when the cache re-write pays back (docs/shed.md)')
      .example('$0 rescue --labels model -- claude', "Also ask the conversation's own model what to keep, point at or drop")
      .example('$0 rescue --window 272000 -- codex', 'The Codex CLI (OpenAI Responses API) with rescue at 70% of a 272k window') as unknown as Argv<RescueArgs>,
  handler: async (args: ArgumentsCamelCase<RescueArgs>) => {
    const [command, ...commandArgs] = (args['--'] ?? []).map(String);
    if (command === undefined) throw new CliError('name the command to run after --, e.g. ctxshed rescue -- claude', 2);
    // Codex reads its base URL from a config key, not the environment: see codex-launch.ts.
    const codex: CodexLaunch | undefined = await codexLaunch(command, commandArgs, args.upstream, process.env);
    const config = proxyConfigFrom(codex === undefined ? args : { ...args, upstream: codex.upstream }, process.env);
    let proxy: RunningProxy | undefined;
    let state: StateDir | undefined;
    try {
      state = await openStateDir(stateDirFrom(args.state));
      proxy = await startProxy(config, state, args.port);
    } catch (error) {
      const why = errorText(error);
      if (args.strict) throw new CliError(`cannot start the proxy (${why}); --strict: not running ${command}`);
      process.stderr.write(`ctxshed: cannot start the proxy (${why}); running ${command} without it\n`);
    }
    let child: { command: string; args: readonly string[]; env: NodeJS.ProcessEnv } = { command, args: commandArgs, env: process.env };
    if (proxy !== undefined && state !== undefined && codex !== undefined) {
      // Codex: its base URL on its command line; the environment and its sandbox as they are.
      const shed = config.engine.mode === 'shed' ? `${CODEX_SHED_LINE}\n` : '';
      const windowLine = codexWindowLine(codex.model, config.engine.window);
      process.stderr.write(`${bannerLine(config, proxy.url, state)}\n${CODEX_GRANT_LINE}\n${shed}${windowLine}\n`);
      child = { command, args: codex.argsFor(proxy.url), env: process.env };
    } else if (proxy !== undefined && state !== undefined) {
      const launch = await planChildLaunch([command, ...commandArgs], {
        url: proxy.url,
        state,
        grant: args.grant,
        env: process.env,
        lookup: systemLookup(process.env['PATH']),
      });
      process.stderr.write(`${bannerLine(config, proxy.url, state)}\n${launch.grantLine}\n`);
      child = launch;
    }
    const outcome = await runChild(child.command, child.args, { env: child.env });
    if (proxy !== undefined) await Promise.race([proxy.close(), delay(SHUTDOWN_GRACE_MS)]);
    exitLike(outcome);
  },
};

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
