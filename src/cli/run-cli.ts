/** The `ctxshed` command line, callable in-process (main.ts is the executable around it). */
import yargs, { type Argv, type CommandModule } from 'yargs';
import { CliError } from './cli-error.js';
import { commandsFor } from './command-table.js';
import { outwardMessage } from '../errors.js';
import { usageMessage } from './usage-message.js';
import { helpWidth, wholeExamples } from './help-examples.js';

/** Runs the CLI with these arguments; resolves to the exit code. */
export async function runCli(argv: readonly string[]): Promise<number> {
  const parser = yargs([...argv]).scriptName('ctxshed');
  // Only the command named is loaded (command-table.ts); help and a mistyped name load them all.
  for (const command of await commandsFor(argv)) parser.command(command as CommandModule);
  parser
    .usage('$0 <command> [options]\n\nKeeps long agent sessions out of their own compaction: old tool results move to files, stubs stay in place.')
    .example(
      wholeExamples([
        ['$0 rescue --rescue-pct 70 -- claude', 'Run Claude Code through the proxy'],
        ['$0 status --follow', 'In a second terminal: the live conversations, updated until Ctrl-C'],
        ['$0 ls --state state.example', 'What the example session did, one line per conversation'],
        ['$0 show cbf84ec36c85 --state state.example', 'One conversation: its epochs, when, why, and each block'],
        ['$0 stats --state state.example', 'Requests, pass-throughs by reason, bytes and tokens elided'],
      ]),
    )
    .demandCommand(1, 'Name a command (see ctxshed --help).')
    .recommendCommands()
    .strict()
    .help()
    .alias('h', 'help')
    .version()
    .wrap(helpWidth())
    // Throw, never just record: yargs would otherwise go on and run the command it just refused.
    // Its own refusals (a flag without its value, too few arguments) are usage errors too.
    .fail((message, error) => {
      if (error !== undefined && error !== null && error.name !== 'YError') throw error;
      throw new CliError(usageMessage(argv, message, knownFlags(parser)) ?? `${message}${dashDashHint(argv, message)}`, 2);
    })
    .exitProcess(false);
  try {
    await parser.parseAsync();
  } catch (error) {
    if (error instanceof CliError) {
      process.stderr.write(`${outwardMessage(error.message)}\n`);
      return error.exitCode;
    }
    // A file the command could not read or write (EISDIR, ENOTDIR, ELOOP, EACCES ...): the
    // system's own one-line message names it; a stack would only hide it.
    if (isSystemError(error)) {
      process.stderr.write(`${outwardMessage(error.message)}\n`);
      return 1;
    }
    process.stderr.write(`ctxshed: unexpected error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    return 70;
  }
  return process.exitCode === undefined ? 0 : Number(process.exitCode);
}

/** What yargs keeps of the flags of the command it parses (its `getOptions()`, which @types/yargs does not declare). */
interface ParsedOptions {
  readonly key: Readonly<Record<string, unknown>>;
  readonly boolean: readonly string[];
  readonly hiddenOptions: readonly string[];
}

/** The flags the command being parsed knows, as typed (kebab case), with `no-` before each boolean: what a typo is weighed against. */
function knownFlags(parser: Argv): string[] {
  const options = (parser as unknown as { getOptions(): ParsedOptions }).getOptions();
  const hidden = new Set<string>(options.hiddenOptions);
  const names = Object.keys(options.key).filter((name) => !hidden.has(name) && !/[A-Z]/.test(name));
  return [...names, ...options.boolean.filter((name) => names.includes(name)).map((name) => `no-${name}`)];
}

function isSystemError(error: unknown): error is NodeJS.ErrnoException {
  return error instanceof Error && typeof (error as NodeJS.ErrnoException).code === 'string' && typeof (error as NodeJS.ErrnoException).syscall === 'string';
}

/**
 * `ctxshed rescue true`: yargs reads `true` as an argument of rescue's own. Name the fix: the
 * command goes after `--`.
 */
export function dashDashHint(argv: readonly string[], message: string): string {
  if (argv[0] !== 'rescue' || argv.includes('--') || !/^Unknown arguments?: /.test(message)) return '';
  // The words yargs did not know, in the order given: the command the user meant to run.
  const unknown = new Set(message.replace(/^Unknown arguments?: /, '').split(', '));
  const words = argv.slice(1).filter((word) => unknown.has(word));
  return `; put the command after --, e.g. ctxshed rescue -- ${words.length === 0 ? 'claude' : words.join(' ')}`;
}
