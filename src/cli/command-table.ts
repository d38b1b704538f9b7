/**
 * The commands, each loaded only when it runs. `ctxshed statusline` runs every few seconds under
 * Claude Code, and each run used to load every command's modules (the proxy, the store, replay,
 * MCP) to print one line; now a run loads the command it names. Help, no command and a mistyped
 * name load every command, so yargs lists them and suggests the nearest.
 */
import type { CommandModule } from 'yargs';

// biome-ignore lint/suspicious/noExplicitAny: each command has its own argument type; yargs takes them all.
type AnyCommand = CommandModule<any, any>;

/** Each command's name, in the order help lists them, and how to load its module. */
const COMMANDS: ReadonlyArray<readonly [string, () => Promise<readonly AnyCommand[]>]> = [
  ['rescue', async () => [(await import('./rescue-command.js')).rescueCommand]],
  ['serve', async () => [(await import('./serve-command.js')).serveCommand]],
  ['demo', async () => [(await import('./demo-command.js')).demoCommand]],
  ['elide', async () => [(await import('./elide-command.js')).elideCommand]],
  ['inflate', async () => [(await import('./inflate-command.js')).inflateCommand]],
  ['verify', async () => [(await import('./verify-command.js')).verifyCommand]],
  ['migrate', async () => [(await import('./migrate-command.js')).migrateCommand]],
  ['replay', async () => [(await import('./replay-command.js')).replayCommand]],
  ['ls', async () => [(await import('./ls-command.js')).lsCommand]],
  ['show', async () => [(await import('./show-command.js')).showCommand]],
  ['status', async () => [(await import('./status-command.js')).statusCommand]],
  ['stats', async () => [(await import('./stats-command.js')).statsCommand]],
  ['statusline', async () => [(await import('./statusline-command.js')).statuslineCommand]],
  ['mcp', async () => [(await import('./mcp-command.js')).mcpCommand]],
  ['seal', async () => [(await import('./seal-command.js')).sealCommand]],
  ['unseal', async () => [(await import('./seal-command.js')).unsealCommand]],
];

/** The names of every command, in help's order. */
export const COMMAND_NAMES: readonly string[] = COMMANDS.map(([name]) => name);

/**
 * The command modules `argv` needs: none for `--version` alone, the one its first word names (a
 * word not starting with `-`), else every command.
 */
export async function commandsFor(argv: readonly string[]): Promise<AnyCommand[]> {
  // `ctxshed --version` prints one word, as a status line or an install check asks it often.
  if (argv.length === 1 && argv[0] === '--version') return [];
  // Every epoch kind registers itself there, readers' half and engine's half at once
  // (docs/adding-a-kind.md): verify, inflate, ls and show read records of every kind the proxy latches.
  await import('../rescue/latch-kinds.js');
  const first = argv.find((a) => !a.startsWith('-'));
  const named = COMMANDS.find(([name]) => name === first);
  const wanted = named === undefined ? COMMANDS : [named];
  return (await Promise.all(wanted.map(([, load]) => load()))).flat();
}
