/**
 * `rescue -- codex ...`: the upstream Codex would have used, and its arguments pointed at the
 * proxy instead (codex-target.ts says how). Reads Codex's config.toml, the one file it touches.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { codexModelArg } from './codex-window.js';
import { baseUrlFromConfigToml, CODEX_DEFAULT_UPSTREAM, codexPosition, takeBaseUrlArg, withBaseUrl } from './codex-target.js';

/** A Codex command line, ready to be pointed at the proxy. */
export interface CodexLaunch {
  /** `--upstream`, else the user's `openai_base_url` (arguments, then config.toml), else OpenAI's API. */
  readonly upstream: string;
  /** The child's arguments with the proxy as Codex's base URL (and the user's own base URL taken out). */
  argsFor(proxyUrl: string): string[];
  /** The model named on Codex's command line (codex-window.ts), else undefined. */
  readonly model: string | undefined;
}

/** The launch when the command runs Codex, else undefined. */
export async function codexLaunch(
  command: string,
  args: readonly string[],
  upstreamFlag: string | undefined,
  env: NodeJS.ProcessEnv,
): Promise<CodexLaunch | undefined> {
  const position = codexPosition(command, args);
  if (position === undefined) return undefined;
  const head = args.slice(0, position + 1);
  const { baseUrl, rest } = takeBaseUrlArg(args.slice(position + 1));
  const upstream = upstreamFlag ?? baseUrl ?? (await configuredBaseUrl(env)) ?? CODEX_DEFAULT_UPSTREAM;
  return { upstream, argsFor: (proxyUrl) => withBaseUrl([...head, ...rest], position, proxyUrl), model: codexModelArg(rest) };
}

/** `openai_base_url` from `$CODEX_HOME/config.toml` (default `~/.codex`); undefined when unreadable. */
async function configuredBaseUrl(env: NodeJS.ProcessEnv): Promise<string | undefined> {
  const home = env['CODEX_HOME'] !== undefined && env['CODEX_HOME'] !== '' ? env['CODEX_HOME'] : path.join(env['HOME'] ?? os.homedir(), '.codex');
  try {
    return baseUrlFromConfigToml(await fs.readFile(path.join(home, 'config.toml'), 'utf8'));
  } catch {
    return undefined;
  }
}
