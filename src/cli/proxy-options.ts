/** The flags `serve` and `rescue` share, and the proxy settings they make (engine and transport). */
import type { Argv } from 'yargs';
import { defaultTransport, DEFAULT_UPSTREAM, type ProxySettings } from '../proxy/transport-settings.js';
import { DEFAULT_LATCH_AT, DEFAULT_LONG_WINDOW_RESCUE_TOKENS, kindOfMode, parseAutoCompactWindow, tokenThresholdFor } from '../core/index.js';
import { DEFAULT_ENGINE_SETTINGS } from '../rescue/index.js';
import { CliError } from './cli-error.js';
import { withOwnerOptions, type OwnerArgs } from './owner-options.js';
import { deepCutOf, withDeepOptions, type DeepArgs } from './deep-options.js';
import { STATE_OPTION, STORE_OPTION } from './state-option.js';

/** The parsed shared flags. */
export interface ProxyArgs extends OwnerArgs, DeepArgs {
  /** Absent (the demo, tests): rescue, no gate. */
  mode?: string;
  horizon?: number | undefined;
  gate?: boolean;
  rescuePct: number;
  /** `--rescue-tokens`; absent: the default for the window. */
  rescueTokens?: number | undefined;
  keepRecent: number;
  minBytes: number;
  window: number | undefined;
  state: string | undefined;
  /** `--store postgres://…`; absent: the state directory. */
  store?: string | undefined;
  upstream: string | undefined;
  port: number;
  /** `--labels`; absent (the demo) means the default. */
  labels?: string | undefined;
  /** `--latch-at`; absent (the demo) means the default. */
  latchAt?: string | undefined;
  /** `--cold-rescue-pct`; absent: a cold request has the usual threshold. */
  coldRescuePct?: number | undefined;
}

/** `--rescue-pct`'s default: the engine's threshold, as a percentage. */
export const DEFAULT_RESCUE_PCT = Math.round(DEFAULT_ENGINE_SETTINGS.threshold * 1000) / 10;

/** `--rescue-tokens`'s help, shared with `replay`. */
export const RESCUE_TOKENS_DESCRIPTION = `Also latch an epoch once a conversation's prompt reaches N tokens, whichever comes first with --rescue-pct (default: ${DEFAULT_LONG_WINDOW_RESCUE_TOKENS.toLocaleString('en-US')} on windows over 200,000, none on others; 0: none)`;

/** `--cold-rescue-pct`'s help, shared with `replay`. */
export const COLD_RESCUE_PCT_DESCRIPTION =
  "Also latch from this fullness (%) on a request that comes back after a gap past its cache's TTL (5 minutes, or 1 hour when asked), whose prefix is re-written anyway (default: none)";

/** Adds the shared flags to a command. */
export function withProxyOptions<T>(yargs: Argv<T>): Argv<T & ProxyArgs> {
  return withDeepOptions(withOwnerOptions(yargs))
    .option('mode', {
      type: 'string',
      default: 'rescue',
      describe: 'What an epoch freezes: old tool results (rescue) or a span of whole old messages (shed); choices: rescue, shed',
    })
    .option('horizon', {
      type: 'number',
      describe: 'Turns a cache re-write must pay back within (default: as many as the conversation has had); from 85% full an epoch latches anyway',
    })
    .option('gate', {
      type: 'boolean',
      default: false,
      describe: 'Rescue mode: latch only when the re-write pays back within the horizon, or the window is 85% full (shed mode always does)',
    })
    .option('rescue-pct', { type: 'number', default: DEFAULT_RESCUE_PCT, describe: 'Latch an epoch when a conversation is this full (% of the window)' })
    .option('rescue-tokens', { type: 'number', describe: RESCUE_TOKENS_DESCRIPTION })
    .option('cold-rescue-pct', { type: 'number', describe: COLD_RESCUE_PCT_DESCRIPTION })
    .option('keep-recent', { type: 'number', default: DEFAULT_ENGINE_SETTINGS.policy.keepRecent, describe: 'Never elide the N newest tool results' })
    .option('min-bytes', { type: 'number', default: DEFAULT_ENGINE_SETTINGS.policy.minBytes, describe: 'Elide only tool results whose text is over N bytes' })
    .option('window', {
      type: 'number',
      describe: "Context window in tokens (default: the model's, e.g. 1,000,000 for Opus 5 and 5.5; else 1,000,000 with the context-1m beta; else 200,000)",
    })
    .option('state', STATE_OPTION)
    .option('store', STORE_OPTION)
    .option('upstream', {
      type: 'string',
      describe:
        'Where to send requests (default: $ANTHROPIC_BASE_URL as it was, else https://api.anthropic.com; for codex, its openai_base_url, else https://api.openai.com/v1)',
    })
    .option('port', { type: 'number', default: 0, describe: 'Port to listen on, on 127.0.0.1 unless --host (0: any free port)' })
    .option('labels', {
      type: 'string',
      default: DEFAULT_ENGINE_SETTINGS.labels,
      describe:
        "Who labels each old tool result keep, pointer or drop: local rules, or also the conversation's own model (docs/labels.md); choices: local, model",
    })
    .option('latch-at', {
      type: 'string',
      default: DEFAULT_LATCH_AT,
      describe:
        "On models that run the thinking prefix check: latch wherever the threshold says (anywhere), or only at a person's prompt until 85% full (prompt; keeps the current turn's thinking, costs runway: docs/rescue.md); choices: anywhere, prompt",
    }) as unknown as Argv<T & ProxyArgs>;
}

/** The proxy settings the flags and environment name; a CliError for a bad value. */
export function proxyConfigFrom(args: ProxyArgs, env: NodeJS.ProcessEnv): ProxySettings {
  const mode = args.mode ?? 'rescue';
  if (mode !== 'rescue' && mode !== 'shed') throw new CliError(`--mode takes rescue or shed, not ${JSON.stringify(mode)}`, 2);
  if (args.horizon !== undefined) wholeNumber(args.horizon, '--horizon', 0);
  if (!(args.rescuePct > 0 && args.rescuePct <= 100)) throw new CliError(`--rescue-pct takes a number above 0 and at most 100, not ${args.rescuePct}`, 2);
  if (args.rescueTokens !== undefined) wholeNumber(args.rescueTokens, '--rescue-tokens', 0);
  const cold = args.coldRescuePct;
  if (cold !== undefined && !(cold > 0 && cold <= 100)) throw new CliError(`--cold-rescue-pct takes a number above 0 and at most 100, not ${cold}`, 2);
  wholeNumber(args.keepRecent, '--keep-recent', 0);
  wholeNumber(args.minBytes, '--min-bytes', 0);
  if (args.window !== undefined) wholeNumber(args.window, '--window', 1000);
  wholeNumber(args.port, '--port', 0);
  if (args.port > 65535) throw new CliError(`--port takes 0 to 65535, not ${args.port}`, 2);
  const labels = args.labels ?? DEFAULT_ENGINE_SETTINGS.labels;
  if (labels !== 'local' && labels !== 'model') throw new CliError(`--labels takes local or model, not ${JSON.stringify(labels)}`, 2);
  const latchAt = args.latchAt ?? DEFAULT_LATCH_AT;
  if (latchAt !== 'prompt' && latchAt !== 'anywhere') throw new CliError(`--latch-at takes prompt or anywhere, not ${JSON.stringify(latchAt)}`, 2);
  const deep = deepCutOf(args);
  const upstreamText = args.upstream ?? nonEmpty(env['ANTHROPIC_BASE_URL']) ?? DEFAULT_UPSTREAM;
  let upstream: URL;
  try {
    upstream = new URL(upstreamText);
  } catch {
    throw new CliError(`the upstream ${JSON.stringify(upstreamText)} is not a URL`, 2);
  }
  if (upstream.protocol !== 'http:' && upstream.protocol !== 'https:')
    throw new CliError(`the upstream must be http:// or https://, not ${upstream.protocol}`, 2);
  return {
    transport: defaultTransport(upstream),
    engine: {
      ...DEFAULT_ENGINE_SETTINGS,
      threshold: args.rescuePct / 100,
      ...(args.rescueTokens === undefined ? {} : { rescueTokens: args.rescueTokens }),
      ...(cold === undefined ? {} : { coldThreshold: cold / 100 }),
      policy: { keepRecent: args.keepRecent, minBytes: args.minBytes, ...(deep === undefined ? {} : { deep }) },
      mode,
      gate: args.gate ?? false,
      ...(args.horizon === undefined ? {} : { horizon: args.horizon }),
      labels,
      ...(latchAt === DEFAULT_LATCH_AT ? {} : { latchAt }),
      ...(args.window === undefined ? {} : { window: args.window }),
      ...autoCompactWindowOf(env),
    },
  };
}

/** The one-line banner: what this mode does, before anything else happens. */
export function bannerLine(settings: ProxySettings, url: string, dirs: { readonly elidedDir: string; readonly spansDir: string }): string {
  const { elidedDir, spansDir } = dirs;
  const {
    engine: config,
    transport: { upstream },
  } = settings;
  const window =
    config.window === undefined
      ? "the model's window (1M for Opus 5 and 5.5, or with the context-1m beta; else 200,000)"
      : `a ${config.window.toLocaleString('en-US')}-token window`;
  const kind = kindOfMode(config.mode);
  const start =
    `ctxshed: ${kind.mode} on at ${url} -> ${upstream.origin}${upstream.pathname === '/' ? '' : upstream.pathname}; ` +
    `epochs latch at ${Math.round(config.threshold * 1000) / 10}% of ${window}${tokensClause(config.rescueTokens, config.window)}`;
  if (kind.counts === 'spans') {
    return `${start} when the cache re-write pays back; this mode changes request bytes: a span of old messages becomes one stub, originals kept in ${spansDir}`;
  }
  const gated = config.gate === true ? ' when the cache re-write pays back' : '';
  // The model mode sends redacted heads of old tool results upstream: say so before it starts.
  const model = config.labels === 'model' ? `; --labels model: at each latch, redacted heads of those results go to the upstream's model to be labelled` : '';
  return `${start}${gated}; this mode changes request bytes: old tool results over ${config.policy.minBytes} bytes become stubs, originals kept in ${elidedDir}${model}`;
}

// The token threshold as the banner says it: only where one is in force.
function tokensClause(rescueTokens: number | undefined, window: number | undefined): string {
  if (rescueTokens === 0) return '';
  if (rescueTokens !== undefined) return ` or at ${rescueTokens.toLocaleString('en-US')} tokens, whichever comes first`;
  if (window !== undefined) {
    const tokens = tokenThresholdFor({ threshold: 1 }, window);
    return tokens === undefined ? '' : ` or at ${tokens.toLocaleString('en-US')} tokens, whichever comes first`;
  }
  return ` or, on a window over 200,000, at ${DEFAULT_LONG_WINDOW_RESCUE_TOKENS.toLocaleString('en-US')} tokens`;
}

function wholeNumber(value: number, flag: string, min: number): void {
  if (!Number.isInteger(value) || value < min) throw new CliError(`${flag} takes a whole number >= ${min}, not ${String(value)}`, 2);
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}

/** `CLAUDE_CODE_AUTO_COMPACT_WINDOW`, the client's and so the proxy's (rescue passes its environment on) and replay's, when usable. */
export function autoCompactWindowOf(env: NodeJS.ProcessEnv): { readonly autoCompactWindow?: number } {
  const tokens = parseAutoCompactWindow(env['CLAUDE_CODE_AUTO_COMPACT_WINDOW']);
  return tokens === undefined ? {} : { autoCompactWindow: tokens };
}
