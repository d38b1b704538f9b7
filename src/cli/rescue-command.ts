/** `ctxshed rescue -- COMMAND ...`: run COMMAND with the proxy in front of its API calls, and be COMMAND. */
import type { ArgumentsCamelCase, Argv, CommandModule } from 'yargs';
import { startProxy, type RunningProxy } from '../proxy/start-proxy.js';
import type { StateDir } from '../state/layout.js';
import { openStateDir } from '../state/open-state-dir.js';
import { exitLike } from '../wrapper/exit-like.js';
import { systemLookup } from '../wrapper/command-lookup.js';
import { commandFailure } from '../wrapper/find-command.js';
import { runChild } from '../wrapper/run-child.js';
import { holdTerminalSignals } from '../wrapper/hold-terminal-signals.js';
import { quietLog, silenceProcessWarnings } from '../wrapper/quiet-terminal.js';
import { settingsFilesFor, userStatusLine } from '../wrapper/claude-statusline.js';
import { planChildLaunch } from './child-launch.js';
import { CliError } from './cli-error.js';
import { bindFrom } from './owner-options.js';
import { bannerLines, portFrom, proxyConfigFrom, withProxyOptions, type ProxyArgs } from './proxy-options.js';
import { wrapLines } from './wrap-words.js';
import { stateDirFrom } from './state-option.js';
import { errorText, outwardMessage } from '../errors.js';
import type { ProxySettings } from '../proxy/transport-settings.js';
import { announceProxy, metricsLine } from './proxy-announce.js';
import { PROXY_UNAVAILABLE_EXIT, proxyFailureLine, unproxiedChild, type ChildCommand } from './unproxied-launch.js';
import { codexWindowLine } from './codex-window.js';
import { codexLaunch, type CodexLaunch } from './codex-launch.js';
import { CODEX_GRANT_LINE } from './codex-target.js';
import { wholeExamples } from './help-examples.js';

interface RescueArgs extends ProxyArgs {
  allowUnproxied: boolean;
  grant: boolean;
  statusline: boolean;
  '--'?: Array<string | number>;
}

/** After the child ends, in-flight requests get this long to finish before ctxshed exits anyway. */
export const SHUTDOWN_GRACE_MS = 5000;

export const rescueCommand: CommandModule<object, RescueArgs> = {
  command: 'rescue',
  describe: 'Run a command (e.g. claude) with the rescue proxy in front of its API calls',
  builder: (yargs) =>
    withProxyOptions(yargs as Argv<object>)
      .option('allow-unproxied', {
        type: 'boolean',
        default: false,
        describe: `If the proxy cannot start, run the command anyway, without ctxshed (pointed at --upstream if named); else rescue exits ${PROXY_UNAVAILABLE_EXIT} without running it`,
      })
      .option('strict', { type: 'boolean', hidden: true, describe: 'The default now: refuse to run the command if the proxy cannot start' })
      .option('grant', {
        type: 'boolean',
        default: true,
        describe: 'Let Claude Code read <state>/elided/ and use the restore tools without asking (--no-grant: not)',
      })
      .option('statusline', {
        type: 'boolean',
        default: true,
        describe: "Show ctxshed in Claude Code's status line, after the user's own status line if they have one (--no-statusline: not)",
      })
      .parserConfiguration({ 'populate--': true })
      .usage('$0 rescue [options] -- COMMAND [ARGS...]')
      .example(
        wholeExamples([
          ['$0 rescue -- claude', 'Claude Code with rescue at 55% of the window'],
          ['$0 rescue --no-grant -- claude', 'The same, without the read grant: Claude Code asks before reading elided text back'],
          ['$0 rescue --rescue-pct 60 --state ~/ctx -- claude --resume', 'Resume a session; its epochs come back from the state directory'],
          ['$0 rescue --mode shed -- claude', 'Shed spans of old messages instead, when the cache re-write pays back (docs/shed.md)'],
          ['$0 rescue --labels model -- claude', "Also ask the conversation's own model what to keep, point at or drop"],
          ['$0 rescue --window 272000 -- codex', 'The Codex CLI (OpenAI Responses API) with rescue at 55% of a 272k window'],
        ]),
      ) as unknown as Argv<RescueArgs>,
  handler: async (args: ArgumentsCamelCase<RescueArgs>) => {
    const [command, ...commandArgs] = (args['--'] ?? []).map(String);
    if (command === undefined) throw new CliError('name the command to run after --, e.g. ctxshed rescue -- claude', 2);
    // The restore tool rescue registers would need the store's URL (and password) on the client's command line.
    if (args.store !== undefined)
      throw new CliError("rescue keeps one person's session in its state directory; for a shared Postgres store run ctxshed serve --store (docs/team.md)", 2);
    // Codex reads its base URL from a config key, not the environment: see codex-launch.ts.
    const codex: CodexLaunch | undefined = await codexLaunch(command, commandArgs, args.upstream, process.env);
    const config = proxyConfigFrom(codex === undefined ? args : { ...args, upstream: codex.upstream }, process.env);
    // Found first, as a shell would: a command that is not there gets one line, no banner and no proxy.
    const missing = await commandFailure(command, process.env['PATH']);
    if (missing !== undefined) throw new CliError(missing.message, missing.code);
    const plain: ChildCommand = { command, args: commandArgs, env: process.env };
    const started = await startOrExplain(config, args, command);
    const child =
      started === undefined
        ? unproxiedChild(plain, args.upstream, codex)
        : await proxiedChild(plain, started, {
            config,
            codex,
            grant: args.grant,
            statusline: args.statusline,
            gateway: bindFrom(args).ownerRule.kind !== 'none',
          });
    // ^C and ^\ are the child's to take; one that lands after it exits must not cut the shutdown short.
    const releaseTerminalSignals = holdTerminalSignals();
    if (started !== undefined) silenceProcessWarnings();
    const outcome = await runChild(child.command, child.args, { env: child.env });
    if (started !== undefined) {
      await closeWithin(started.proxy, SHUTDOWN_GRACE_MS);
      await started.forget();
    }
    releaseTerminalSignals();
    exitLike(outcome);
  },
};

interface Started {
  readonly proxy: RunningProxy;
  readonly state: StateDir;
  /** Removes the proxy's file from the state directory (proxy-announce.ts). */
  readonly forget: () => Promise<void>;
}

/** The proxy, running; or, with --allow-unproxied, undefined after one line saying why not; else a CliError. */
async function startOrExplain(config: ProxySettings, args: RescueArgs, command: string): Promise<Started | undefined> {
  // A bind refused is a usage error, before anything starts (owner-options.ts).
  const bind = bindFrom(args);
  try {
    const state = await openStateDir(stateDirFrom(args.state));
    // After the banner the terminal is the child's: the proxy's lines for a person stay in the state directory.
    const proxy = await startProxy(config, state, portFrom(args), { ...bind, log: quietLog });
    return { state, proxy, forget: await announceProxy(state, proxy.url, 'rescue') };
  } catch (error) {
    const where = { port: portFrom(args), upstream: config.transport.upstream.href, command };
    const line = proxyFailureLine(errorText(error), where, args.allowUnproxied);
    if (!args.allowUnproxied) throw new CliError(line, PROXY_UNAVAILABLE_EXIT);
    process.stderr.write(`${outwardMessage(line)}\n`);
    return undefined;
  }
}

/** The child pointed at the running proxy, after the banner. */
async function proxiedChild(
  plain: ChildCommand,
  { proxy, state }: Started,
  options: {
    readonly config: ProxySettings;
    readonly codex: CodexLaunch | undefined;
    readonly grant: boolean;
    readonly statusline: boolean;
    /** An owner rule is on: the restore tools read through the proxy (docs/team.md). */
    readonly gateway: boolean;
  },
): Promise<ChildCommand> {
  const banner = [...bannerLines(options.config, proxy.url, state), metricsLine(proxy.url)];
  if (options.codex !== undefined) {
    // Codex: its base URL on its command line; the environment and its sandbox as they are.
    const windowLine = codexWindowLine(options.codex.model, options.config.engine.window.given);
    process.stderr.write(`${wrapLines([...banner, CODEX_GRANT_LINE, windowLine])}\n`);
    return { ...plain, args: options.codex.argsFor(proxy.url) };
  }
  const launch = await planChildLaunch([plain.command, ...plain.args], {
    url: proxy.url,
    state,
    grant: options.grant,
    gateway: options.gateway,
    env: plain.env,
    lookup: systemLookup(plain.env['PATH']),
    ...(options.statusline ? { statusLine: { theirs: () => userStatusLine(settingsFilesFor(process.cwd(), plain.env)) } } : {}),
  });
  process.stderr.write(`${wrapLines([...banner, launch.grantLine])}\n`);
  return launch;
}

/**
 * Closes the proxy, or gives up after `ms`. The timer is not unref'd: a close that waits on
 * something nothing keeps alive would otherwise leave the process with an empty event loop and
 * this await unsettled, and Node would exit with its own code (13, or 0) instead of the child's.
 */
async function closeWithin(proxy: RunningProxy, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  try {
    await Promise.race([proxy.close(), late]);
  } finally {
    clearTimeout(timer);
  }
}
