/**
 * `replay`'s flags that vary the engine's levers (docs/economics.md "Choosing the defaults"): the
 * break-even gate for rescue epochs, the gain an epoch must free, shed's recent budget and the
 * threshold on a request whose cache is cold anyway. Absent, each is the engine's default.
 */
import type { Argv } from 'yargs';
import { DEFAULT_SHED_POLICY } from '../core/index.js';
import { DEFAULT_ENGINE_SETTINGS } from '../rescue/index.js';
import type { ReplayTuning } from '../replay/replay-options.js';
import { CliError } from './cli-error.js';
import { COLD_RESCUE_PCT_DESCRIPTION } from './proxy-options.js';

/** The parsed tuning flags. */
export interface TuningArgs {
  gate: boolean | undefined;
  minGainPct: number | undefined;
  recentPct: number | undefined;
  recentMax: number | undefined;
  coldRescuePct: number | undefined;
}

const pct = (fraction: number | undefined): string => (fraction === undefined ? 'none' : String(Math.round(fraction * 1000) / 10));

/** Adds the tuning flags to `replay`. */
export function withTuningOptions<T>(yargs: Argv<T>): Argv<T & TuningArgs> {
  return yargs
    .option('gate', {
      type: 'boolean',
      describe: `Rescue epochs latch only when their cache re-write pays back within the horizon, as shed's do (default: ${DEFAULT_ENGINE_SETTINGS.gate === true})`,
    })
    .option('min-gain-pct', {
      type: 'number',
      describe: `An epoch must free at least this % of the window (default ${pct(DEFAULT_ENGINE_SETTINGS.minGainFraction)})`,
    })
    .option('recent-pct', { type: 'number', describe: `Shed's recent budget as a % of the window (default ${pct(DEFAULT_SHED_POLICY.recentFraction)})` })
    .option('recent-max', {
      type: 'number',
      describe: `Shed's recent budget is at most N tokens (default ${DEFAULT_SHED_POLICY.recentCeilingTokens.toLocaleString('en-US')})`,
    })
    .option('cold-rescue-pct', { type: 'number', describe: COLD_RESCUE_PCT_DESCRIPTION }) as unknown as Argv<T & TuningArgs>;
}

/** The tuning the flags ask for; a usage error (exit 2) for a value out of range. */
export function tuningOf(args: TuningArgs): ReplayTuning {
  const percent = (flag: string, v: number | undefined): number | undefined => {
    if (v === undefined) return undefined;
    if (!(v >= 0 && v <= 100)) throw new CliError(`${flag} takes a number from 0 to 100, not ${v}`, 2);
    return v / 100;
  };
  if (args.recentMax !== undefined && !(Number.isInteger(args.recentMax) && args.recentMax >= 0))
    throw new CliError(`--recent-max takes a whole number of tokens, not ${args.recentMax}`, 2);
  const minGain = percent('--min-gain-pct', args.minGainPct);
  const recent = percent('--recent-pct', args.recentPct);
  const cold = percent('--cold-rescue-pct', args.coldRescuePct);
  const shed = recent === undefined && args.recentMax === undefined;
  return {
    ...(args.gate === undefined ? {} : { gate: args.gate }),
    ...(minGain === undefined ? {} : { minGainFraction: minGain }),
    ...(shed
      ? {}
      : {
          shedPolicy: {
            ...DEFAULT_SHED_POLICY,
            ...(recent === undefined ? {} : { recentFraction: recent }),
            ...(args.recentMax === undefined ? {} : { recentCeilingTokens: args.recentMax }),
          },
        }),
    ...(cold === undefined ? {} : { coldThreshold: cold }),
  };
}

/** The tuning flags as they were given, for the command line a figures table prints. */
export function tuningParts(args: TuningArgs): string[] {
  const parts: string[] = [];
  if (args.gate !== undefined) parts.push(args.gate ? '--gate' : '--no-gate');
  if (args.minGainPct !== undefined) parts.push('--min-gain-pct', String(args.minGainPct));
  if (args.recentPct !== undefined) parts.push('--recent-pct', String(args.recentPct));
  if (args.recentMax !== undefined) parts.push('--recent-max', String(args.recentMax));
  if (args.coldRescuePct !== undefined) parts.push('--cold-rescue-pct', String(args.coldRescuePct));
  return parts;
}
