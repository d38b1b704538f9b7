/** The flags `serve` and `rescue` share, and the proxy settings they make (engine and transport). */
import type { Argv } from 'yargs';
import { defaultTransport, DEFAULT_UPSTREAM, type ProxySettings } from '../proxy/transport-settings.js';
import { DEFAULT_LONG_WINDOW_RESCUE_TOKENS, type ElisionPolicy, parseAutoCompactWindow, tokenThresholdFor } from '../core/index.js';
import { DEFAULT_LABELS, engineSettingsOf, infoOfModeWord, type LabelMode } from '../rescue/index.js';
import { CliError } from './cli-error.js';
import { numberFlag, wholeNumber } from './flag-value.js';
import { withOwnerOptions, type OwnerArgs } from './owner-options.js';
import { settingsFrom, withSettingsOptions, type SettingsArgs } from './settings-options.js';
import { STATE_OPTION, STORE_OPTION } from './state-option.js';

/** The parsed flags of `serve` and `rescue`: the engine's shared ones (settings-options.ts) and the proxy's own. */
export interface ProxyArgs extends OwnerArgs, SettingsArgs {
  state: string | undefined;
  /** `--store postgres://…`; absent: the state directory. */
  store?: string | undefined;
  upstream: string | undefined;
  /** `--port`: a number, or the text given when it is none (flag-value.ts). */
  port: unknown;
  /** `--labels`; absent (the demo) means the default. */
  labels?: string | undefined;
}

/** `--window`'s help on a proxy. */
const PROXY_WINDOW =
  "Context window in tokens (default: the model's, e.g. 1,000,000 for Opus 5 and 5.5; else 1,000,000 with the context-1m beta; else 200,000)";

/** Adds the shared flags to a command. */
export function withProxyOptions<T>(yargs: Argv<T>): Argv<T & ProxyArgs> {
  return withSettingsOptions(withOwnerOptions(yargs), { mode: true, window: { describe: PROXY_WINDOW } })
    .option('state', STATE_OPTION)
    .option('store', STORE_OPTION)
    .option('upstream', {
      type: 'string',
      describe:
        'Where to send requests (default: $ANTHROPIC_BASE_URL as it was, else https://api.anthropic.com; for codex, its openai_base_url, else https://api.openai.com/v1)',
    })
    .option('port', { requiresArg: true, default: 0, describe: 'Port to listen on, on 127.0.0.1 unless --host (0: any free port)' })
    .option('labels', {
      type: 'string',
      default: DEFAULT_LABELS,
      describe:
        "Who labels each old tool result keep, pointer or drop: local rules, or also the conversation's own model (docs/labels.md); choices: local, model",
    }) as unknown as Argv<T & ProxyArgs>;
}

/** The port `--port` names; a CliError (exit 2) for anything but 0 to 65535. */
export function portFrom(args: Pick<ProxyArgs, 'port'>): number {
  return (
    numberFlag('--port', args.port, {
      ...wholeNumber(0),
      takes: 'a port from 0 to 65535 (0: any free one)',
      accepts: (n) => Number.isInteger(n) && n >= 0 && n <= 65535,
    }) ?? 0
  );
}

/** The proxy settings the flags and environment name; a CliError for a bad value. */
export function proxyConfigFrom(args: ProxyArgs, env: NodeJS.ProcessEnv): ProxySettings {
  const given = settingsFrom(args);
  portFrom(args);
  const labels = args.labels ?? DEFAULT_LABELS;
  if (labels !== 'local' && labels !== 'model') throw new CliError(`--labels takes local or model, not ${JSON.stringify(labels)}`, 2);
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
    engine: engineSettingsOf({ ...given, labels: labels as LabelMode, ...autoCompactWindowOf(env) }),
  };
}

/**
 * The banner: what this mode does, before anything else happens, as lines to wrap to the terminal
 * (wrap-words.ts): where the proxy listens and forwards, when epochs latch, what they change and
 * where the originals go, and what `--labels model` sends upstream.
 */
export function bannerLines(settings: ProxySettings, url: string, dirs: { readonly elidedDir: string; readonly spansDir: string }): string[] {
  const { elidedDir, spansDir } = dirs;
  const {
    engine: config,
    transport: { upstream },
  } = settings;
  const given = config.window.given;
  const window = given === undefined ? "the model's window" : `a ${given.toLocaleString('en-US')}-token window`;
  const { thresholds } = config.latch;
  const kind = infoOfModeWord(config.mode);
  const on = `ctxshed: ${config.mode} on at ${url} -> ${upstream.origin}${upstream.pathname === '/' ? '' : upstream.pathname}`;
  const latch = `ctxshed: epochs latch at ${Math.round(thresholds.threshold * 1000) / 10}% of ${window}${tokensClause(thresholds.rescueTokens, given)}`;
  if (kind?.counts === 'spans')
    return [on, `${latch} when the cache re-write pays back; a span of old messages becomes one stub, originals kept in ${spansDir}`];
  // A registered kind's mode: its items, in its own folder of the state directory (docs/adding-a-kind.md).
  if (kind !== undefined && kind.counts === 'items') return [on, `${latch}; old ${kind.tag} items become stubs, originals kept in <state>/${kind.originals}`];
  const gated = config.rescue.gate ? ' when the cache re-write pays back' : '';
  const lines = [on, `${latch}${gated}; ${whatBecomesStubs(config.rescue.policy)} become stubs, originals kept in ${elidedDir}`];
  // The model mode sends redacted heads of old tool results upstream: say so before it starts.
  if (config.rescue.labels === 'model')
    lines.push("ctxshed: --labels model: at each latch, redacted heads of those results go to the upstream's model to be labelled");
  return lines;
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

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}

/** `CLAUDE_CODE_AUTO_COMPACT_WINDOW`, the client's and so the proxy's (rescue passes its environment on) and replay's, when usable. */
export function autoCompactWindowOf(env: NodeJS.ProcessEnv): { readonly autoCompactWindow?: number } {
  const tokens = parseAutoCompactWindow(env['CLAUDE_CODE_AUTO_COMPACT_WINDOW']);
  return tokens === undefined ? {} : { autoCompactWindow: tokens };
}

/** What a rescue epoch stubs, as the banner says it: tool results, and the deeper cut's parts when it takes any. */
function whatBecomesStubs(policy: ElisionPolicy): string {
  const results = `old tool results over ${policy.minBytes} bytes`;
  const deep = policy.deep;
  if (deep === undefined || deep.parts.length === 0) return results;
  const parts = [
    ...(deep.parts.includes('tool_input') ? [`old tool inputs over ${deep.inputMinBytes}`] : []),
    ...(deep.parts.includes('assistant_text') ? [`old assistant texts over ${deep.textMinBytes}`] : []),
  ];
  return `${results}, ${parts.join(' and ')} bytes`;
}
