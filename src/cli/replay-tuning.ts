/**
 * `replay`'s flags that vary the engine's levers besides the shared ones (settings-options.ts;
 * docs/economics.md "Choosing the defaults"): the gain an epoch must free and shed's recent
 * budget. Absent, each is its mode's default (rescue/mode-defaults.ts).
 */
import type { Argv } from 'yargs';
import { defaultByMode, type SettingsGiven } from '../rescue/index.js';
import { numberFlag, PERCENT_FROM_0, wholeNumber } from './flag-value.js';
import type { SettingsArgs } from './settings-options.js';

/** The parsed tuning flags: a number, or the text given when it is none (flag-value.ts). */
export interface TuningArgs {
  minGainPct: unknown;
  recentPct: unknown;
  recentMax: unknown;
}

const pct = (fraction: number): string => String(Math.round(fraction * 1000) / 10);

/** Adds the tuning flags to `replay`. */
export function withTuningOptions<T>(yargs: Argv<T>): Argv<T & TuningArgs> {
  return yargs
    .option('min-gain-pct', {
      requiresArg: true,
      describe: `An epoch must free at least this % of the window (default ${defaultByMode((r) => pct(r.minGainFraction))})`,
    })
    .option('recent-pct', {
      requiresArg: true,
      describe: `Shed's recent budget as a % of the window (default ${defaultByMode((r) => pct(r.shedPolicy.recentFraction))})`,
    })
    .option('recent-max', {
      requiresArg: true,
      describe: `Shed's recent budget is at most N tokens (default ${defaultByMode((r) => r.shedPolicy.recentCeilingTokens.toLocaleString('en-US'))})`,
    }) as unknown as Argv<T & TuningArgs>;
}

/** The levers the tuning flags set; a usage error (exit 2) for a value out of range. */
export function tuningOf(args: TuningArgs): Pick<SettingsGiven, 'minGainFraction' | 'recentFraction' | 'recentCeilingTokens'> {
  const minGain = numberFlag('--min-gain-pct', args.minGainPct, PERCENT_FROM_0);
  const recent = numberFlag('--recent-pct', args.recentPct, PERCENT_FROM_0);
  const recentMax = numberFlag('--recent-max', args.recentMax, wholeNumber(0, 'tokens'));
  return {
    ...(minGain === undefined ? {} : { minGainFraction: minGain / 100 }),
    ...(recent === undefined ? {} : { recentFraction: recent / 100 }),
    ...(recentMax === undefined ? {} : { recentCeilingTokens: recentMax }),
  };
}

/** The levers' flags as they were given (the shared `--gate` and `--cold-rescue-pct` too), for the command line a figures table prints. */
export function tuningParts(args: TuningArgs & Pick<SettingsArgs, 'gate' | 'coldRescuePct'>): string[] {
  const parts: string[] = [];
  if (args.gate !== undefined) parts.push(args.gate ? '--gate' : '--no-gate');
  if (args.minGainPct !== undefined) parts.push('--min-gain-pct', String(args.minGainPct));
  if (args.recentPct !== undefined) parts.push('--recent-pct', String(args.recentPct));
  if (args.recentMax !== undefined) parts.push('--recent-max', String(args.recentMax));
  if (args.coldRescuePct !== undefined) parts.push('--cold-rescue-pct', String(args.coldRescuePct));
  return parts;
}
