/**
 * `ctxshed statusline`: Claude Code's `statusLine` command (docs/commands.md). Reads the JSON
 * Claude Code writes on stdin, prints one line for the conversation of its `session_id`. With
 * `--compose CMD` (how `rescue` keeps a status line the user already had) it runs CMD first on
 * the same stdin, and puts ctxshed's line after the first line CMD printed.
 */
import { spawn } from 'node:child_process';
import type { ArgumentsCamelCase, Argv, CommandModule } from 'yargs';
import { layoutPaths } from '../state/layout.js';
import { statusLineFor } from '../report/statusline.js';
import { errorText, isRecord } from '../errors.js';
import { writeStdout } from './read-input.js';
import { STATE_OPTION, stateDirFrom } from './state-option.js';
import { wholeExamples } from './help-examples.js';

interface StatuslineArgs {
  state: string | undefined;
  compose: string | undefined;
}

/** The most of stdin the command reads: Claude Code's JSON is a few KiB. */
const STDIN_MAX_BYTES = 1024 * 1024;
/** How long the user's own status line command may run. */
export const COMPOSE_TIMEOUT_MS = 5000;

export const statuslineCommand: CommandModule<object, StatuslineArgs> = {
  command: 'statusline',
  describe: "One line for Claude Code's status line: the epoch, how full the model sees its window, what is kept out (rescue wires it)",
  builder: (yargs) =>
    (yargs as Argv<object>)
      .option('state', STATE_OPTION)
      .option('compose', { type: 'string', describe: 'Run this status line command first (the one the user had) and append ours to its first line' })
      .example(
        wholeExamples([
          ['echo \'{"session_id":"x"}\' | $0 statusline --state state.example', 'What Claude Code shows for a session this state directory has not seen'],
        ]),
      ) as unknown as Argv<StatuslineArgs>,
  handler: async (args: ArgumentsCamelCase<StatuslineArgs>) => {
    const input = await readStdin();
    const theirs = args.compose === undefined ? undefined : runTheirs(args.compose, input);
    let ours: string;
    try {
      ours = await statusLineFor(layoutPaths(stateDirFrom(args.state)), sessionIdOf(input));
    } catch (error) {
      // A status line is no place for a stack: say it in a few words, and let the agent go on.
      ours = `ctxshed: status unavailable (${errorText(error).slice(0, 80)})`;
    }
    await writeStdout(`${composeLines(theirs === undefined ? undefined : await theirs, ours)}\n`);
  },
};

/** Ours after the first line of theirs; theirs as it was otherwise. */
export function composeLines(theirs: string | undefined, ours: string): string {
  const lines = (theirs ?? '').replace(/\r?\n$/, '').split(/\r?\n/);
  if (lines.length === 1 && lines[0] === '') return ours;
  lines[0] = `${lines[0]}  ${ours}`;
  return lines.join('\n');
}

/** The `session_id` of Claude Code's JSON, if it is there. */
export function sessionIdOf(input: string): string | undefined {
  try {
    const value: unknown = JSON.parse(input);
    return isRecord(value) && typeof value['session_id'] === 'string' && value['session_id'] !== '' ? value['session_id'] : undefined;
  } catch {
    return undefined;
  }
}

async function readStdin(): Promise<string> {
  if (process.stdin.isTTY === true) return '';
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of process.stdin) {
    const bytes = chunk as Buffer;
    size += bytes.length;
    if (size > STDIN_MAX_BYTES) break;
    chunks.push(bytes);
  }
  return Buffer.concat(chunks).toString('utf8');
}

// The user's own command, as Claude Code would run it (a shell), on the same stdin; its stdout, or '' on failure.
function runTheirs(command: string, input: string): Promise<string> {
  return new Promise((resolve) => {
    const child = spawn('/bin/sh', ['-c', command], { stdio: ['pipe', 'pipe', 'ignore'] });
    let out = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), COMPOSE_TIMEOUT_MS);
    child.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
    child.on('error', () => resolve(out));
    child.on('close', () => {
      clearTimeout(timer);
      resolve(out);
    });
    child.stdin.on('error', () => undefined);
    child.stdin.end(input);
  });
}
