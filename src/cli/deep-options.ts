/**
 * The deeper cut's flags (docs/rescue.md "The deeper cut"), shared by `serve`, `rescue` and
 * `replay`: which parts besides tool results a rescue epoch may take, and the floor of each.
 * Absent, each is the engine's default (rescue/engine-settings.ts `DEFAULT_ENGINE_SETTINGS`).
 */
import type { Argv } from 'yargs';
import type { BlockPart, DeepCut } from '../core/index.js';
import { DEFAULT_DEEP_CUT } from '../rescue/index.js';
import { CliError } from './cli-error.js';

/** The parsed flags. */
export interface DeepArgs {
  deep?: string | undefined;
  deepMinBytes?: number | undefined;
  textMinBytes?: number | undefined;
}

/** The words `--deep` takes, and the part each names. */
const PART_WORDS: Readonly<Record<string, BlockPart>> = { inputs: 'tool_input', text: 'assistant_text' };

/** `--deep`'s default, as the words say it. */
export const DEFAULT_DEEP_WORDS = wordsOf(DEFAULT_DEEP_CUT);

/** Adds the flags to a command. */
export function withDeepOptions<T>(yargs: Argv<T>): Argv<T & DeepArgs> {
  return yargs
    .option('deep', {
      type: 'string',
      describe: `Rescue mode: what else an epoch may take besides old tool results: inputs (large strings of old tool calls: a Write's content, a long command), text (old assistant text), both (inputs,text) or none (default: ${DEFAULT_DEEP_WORDS})`,
    })
    .option('deep-min-bytes', {
      type: 'number',
      describe: `With --deep inputs: take a tool input's string only when it is over N bytes (default ${DEFAULT_DEEP_CUT?.inputMinBytes ?? 1024})`,
    })
    .option('text-min-bytes', {
      type: 'number',
      describe: `With --deep text: take an assistant text only when it is over N bytes (default ${DEFAULT_DEEP_CUT?.textMinBytes ?? 1024})`,
    }) as unknown as Argv<T & DeepArgs>;
}

/** The deeper cut the flags ask for (undefined: none); a usage error (exit 2) for a bad value. */
export function deepCutOf(args: DeepArgs): DeepCut | undefined {
  for (const [flag, v] of [
    ['--deep-min-bytes', args.deepMinBytes],
    ['--text-min-bytes', args.textMinBytes],
  ] as const) {
    if (v !== undefined && !(Number.isInteger(v) && v >= 0)) throw new CliError(`${flag} takes a whole number, not ${v}`, 2);
  }
  const parts = args.deep === undefined ? (DEFAULT_DEEP_CUT?.parts ?? []) : partsOf(args.deep);
  if (parts.length === 0) return undefined;
  return {
    parts,
    inputMinBytes: args.deepMinBytes ?? DEFAULT_DEEP_CUT?.inputMinBytes ?? 1024,
    textMinBytes: args.textMinBytes ?? DEFAULT_DEEP_CUT?.textMinBytes ?? 1024,
  };
}

/** The flags as they were given, for the command line a figures table prints. */
export function deepParts(args: DeepArgs): string[] {
  const parts: string[] = [];
  if (args.deep !== undefined) parts.push('--deep', args.deep);
  if (args.deepMinBytes !== undefined) parts.push('--deep-min-bytes', String(args.deepMinBytes));
  if (args.textMinBytes !== undefined) parts.push('--text-min-bytes', String(args.textMinBytes));
  return parts;
}

function partsOf(words: string): BlockPart[] {
  if (words === 'none') return [];
  const list = words.split(',').map((w) => w.trim());
  const parts = list.map((w) => PART_WORDS[w]);
  if (list.length === 0 || parts.some((p) => p === undefined))
    throw new CliError(`--deep takes inputs, text, inputs,text or none, not ${JSON.stringify(words)}`, 2);
  return [...new Set(parts as BlockPart[])];
}

function wordsOf(deep: DeepCut | undefined): string {
  if (deep === undefined || deep.parts.length === 0) return 'none';
  return Object.entries(PART_WORDS)
    .filter(([, part]) => deep.parts.includes(part))
    .map(([word]) => word)
    .join(',');
}
