/**
 * The engine's flags that `rescue`, `serve`, `demo` and `replay` share, declared once and checked
 * once (`settingsFrom`), each with one message, into the one settings value the engine and replay
 * both take (rescue/engine-settings.ts `SettingsGiven`). A lever's default is its mode's
 * (rescue/mode-defaults.ts), so the flags that have one declare none to yargs: a flag left out
 * stays out, and the mode's row decides. `status` takes the threshold flags, `elide` the policy's.
 */
import type { Argv } from 'yargs';
import { DEFAULT_LATCH_AT, DEFAULT_LONG_WINDOW_RESCUE_TOKENS, type LatchAt } from '../core/index.js';
import { DEFAULT_MODE, defaultByMode, lookUpMode, modeRows, modeWords, type SettingsGiven } from '../rescue/index.js';
import { CliError } from './cli-error.js';
import { deepCutOf, withDeepOptions, type DeepArgs } from './deep-options.js';
import { numberFlag, PERCENT_ABOVE_0, wholeNumber } from './flag-value.js';

/** `--latch-at`'s words. */
const LATCH_AT: readonly LatchAt[] = ['anywhere', 'prompt'];

/** The threshold flags as yargs gives them: a number, or the text given when it is none. */
export interface ThresholdArgs {
  rescuePct?: unknown;
  rescueTokens?: unknown;
}

/** The policy flags as yargs gives them. */
export interface PolicyArgs {
  keepRecent?: unknown;
  minBytes?: unknown;
}

/** Every shared flag as yargs gives it. */
export interface SettingsArgs extends ThresholdArgs, PolicyArgs, DeepArgs {
  /** Absent: the command takes no `--mode` (replay runs every mode), or it was left out. */
  mode?: string | undefined;
  coldRescuePct?: unknown;
  window?: unknown;
  horizon?: unknown;
  gate?: boolean | undefined;
  latchAt?: string | undefined;
}

/** How a command takes the shared flags. */
export interface SettingsFlagsSpec {
  /** Whether it takes `--mode` (replay runs both modes and does not). */
  readonly mode: boolean;
  /** `--window`'s help, and its default where the command has its own (the demo's small window). */
  readonly window: { readonly describe: string; readonly default?: number };
}

const pct = (fraction: number): string => String(Math.round(fraction * 1000) / 10);

/** Adds `--rescue-pct` and `--rescue-tokens`; `describe` words them for a command that shows thresholds rather than latching (status). */
export function withThresholdOptions<T>(
  yargs: Argv<T>,
  describe: { readonly rescuePct?: string; readonly rescueTokens?: string } = {},
): Argv<T & ThresholdArgs> {
  return yargs
    .option('rescue-pct', {
      requiresArg: true,
      describe: `${describe.rescuePct ?? 'Latch an epoch when a conversation is this full (% of the window)'}; default ${defaultByMode((r) => pct(r.threshold))}`,
    })
    .option('rescue-tokens', {
      requiresArg: true,
      describe:
        describe.rescueTokens ??
        `Also latch an epoch once a conversation's prompt reaches N tokens, whichever comes first with --rescue-pct (default: ${DEFAULT_LONG_WINDOW_RESCUE_TOKENS.toLocaleString('en-US')} on windows over 200,000, none on others; 0: none)`,
    }) as unknown as Argv<T & ThresholdArgs>;
}

/** Adds `--keep-recent` and `--min-bytes`, which choose the tool results a rescue epoch takes. */
export function withPolicyOptions<T>(yargs: Argv<T>): Argv<T & PolicyArgs> {
  return yargs
    .option('keep-recent', { requiresArg: true, describe: `Never elide the N newest tool results; default ${defaultByMode((r) => String(r.keepRecent))}` })
    .option('min-bytes', {
      requiresArg: true,
      describe: `Elide only tool results whose text is over N bytes; default ${defaultByMode((r) => String(r.minBytes))}`,
    }) as unknown as Argv<T & PolicyArgs>;
}

/** Adds every shared flag a command takes (`spec`). */
export function withSettingsOptions<T>(yargs: Argv<T>, spec: SettingsFlagsSpec): Argv<T & SettingsArgs> {
  const withMode = spec.mode
    ? yargs.option('mode', {
        type: 'string',
        default: DEFAULT_MODE,
        describe: modeHelp(),
      })
    : yargs;
  return withDeepOptions(withPolicyOptions(withThresholdOptions(withMode)))
    .option('cold-rescue-pct', {
      requiresArg: true,
      describe:
        "Also latch from this fullness (%) on a request that comes back after a gap past its cache's TTL (5 minutes, or 1 hour when asked), whose prefix is re-written anyway (default: none)",
    })
    .option('window', { requiresArg: true, describe: spec.window.describe, ...(spec.window.default === undefined ? {} : { default: spec.window.default }) })
    .option('horizon', {
      requiresArg: true,
      describe: 'Turns a cache re-write must pay back within (default: as many as the conversation has had); from 85% full an epoch latches anyway',
    })
    .option('gate', {
      type: 'boolean',
      describe: `Rescue mode: latch only when the re-write pays back within the horizon, or the window is 85% full (shed mode always does); default ${defaultByMode((r) => (r.gate ? 'on' : 'off'))}`,
    })
    .option('latch-at', {
      type: 'string',
      describe: `On models that run the thinking prefix check: latch wherever the threshold says (anywhere), or only at a person's prompt until 85% full (prompt; keeps the current turn's thinking, costs runway: docs/rescue.md); default ${DEFAULT_LATCH_AT}; choices: ${LATCH_AT.join(', ')}`,
    }) as unknown as Argv<T & SettingsArgs>;
}

/**
 * `--mode`'s help, from the registry's rows (rescue/mode-defaults.ts): what each mode's epochs
 * freeze, and every word, a registered kind's too (cli/command-table.ts loads the registry first).
 */
function modeHelp(): string {
  const said = modeRows().flatMap((m) => (m.freezes === undefined ? [] : [`${m.freezes} (${m.word})`]));
  return `What an epoch freezes: ${said.join(' or ')}; choices: ${modeWords().join(', ')}`;
}

/** The threshold flags, checked: the fraction and the token threshold as given, each absent when left out. */
export function thresholdsFrom(args: ThresholdArgs): Pick<SettingsGiven, 'threshold' | 'rescueTokens'> {
  const pctGiven = numberFlag('--rescue-pct', args.rescuePct, PERCENT_ABOVE_0);
  const rescueTokens = numberFlag('--rescue-tokens', args.rescueTokens, wholeNumber(0, 'tokens'));
  return { ...(pctGiven === undefined ? {} : { threshold: pctGiven / 100 }), ...(rescueTokens === undefined ? {} : { rescueTokens }) };
}

/** The policy flags, checked. */
export function policyFrom(args: PolicyArgs): Pick<SettingsGiven, 'keepRecent' | 'minBytes'> {
  const keepRecent = numberFlag('--keep-recent', args.keepRecent, wholeNumber(0));
  const minBytes = numberFlag('--min-bytes', args.minBytes, wholeNumber(0, 'bytes'));
  return { ...(keepRecent === undefined ? {} : { keepRecent }), ...(minBytes === undefined ? {} : { minBytes }) };
}

/** The deeper cut's flags, checked: absent when none was given (the mode's row decides), `none` for no cut. */
function deepFrom(args: DeepArgs): Pick<SettingsGiven, 'deep'> {
  const cut = deepCutOf(args);
  if (args.deep === undefined && args.deepMinBytes === undefined && args.textMinBytes === undefined) return {};
  return { deep: cut ?? 'none' };
}

/** The shared flags, checked once: the settings they give; a CliError (exit 2) for the first value refused. */
export function settingsFrom(args: SettingsArgs): SettingsGiven {
  const mode = args.mode;
  const known = mode === undefined ? undefined : lookUpMode(mode);
  if (known?.kind === 'unknown') throw new CliError(known.message, 2);
  const latchAt = args.latchAt;
  if (latchAt !== undefined && !LATCH_AT.includes(latchAt as LatchAt))
    throw new CliError(`--latch-at takes ${[...LATCH_AT].reverse().join(' or ')}, not ${JSON.stringify(latchAt)}`, 2);
  const cold = numberFlag('--cold-rescue-pct', args.coldRescuePct, PERCENT_ABOVE_0);
  const window = numberFlag('--window', args.window, wholeNumber(1000, 'tokens'));
  const horizon = numberFlag('--horizon', args.horizon, wholeNumber(0, 'turns'));
  return {
    ...(mode === undefined ? {} : { mode }),
    ...thresholdsFrom(args),
    ...(cold === undefined ? {} : { coldThreshold: cold / 100 }),
    ...policyFrom(args),
    ...deepFrom(args),
    ...(window === undefined ? {} : { window }),
    ...(horizon === undefined ? {} : { horizon }),
    ...(args.gate === undefined ? {} : { gate: args.gate }),
    ...(latchAt === undefined ? {} : { latchAt: latchAt as LatchAt }),
  };
}
