/**
 * How `rescue` points the Codex CLI at the proxy. Codex 0.169.0 reads its base URL from the
 * `openai_base_url` config key, not from `OPENAI_BASE_URL` (checked: with only the variable set it
 * still calls api.openai.com), so rescue adds `-c openai_base_url="<proxy>"` right after the word
 * that runs Codex. A base URL the user already gave (`-c openai_base_url=...` among the arguments,
 * else `openai_base_url` in Codex's config.toml) becomes the upstream, as ANTHROPIC_BASE_URL does
 * for Claude Code. Pure: the command reads the config file and hands its text in.
 */

/**
 * The banner's second line for Codex. rescue adds no read grant: Codex 0.169.0's default sandboxes
 * (read-only for `codex exec`, workspace-write in the TUI; bubblewrap, then seccomp, on Linux) let
 * its shell read every file, `<state>/elided/` included, without an approval prompt (checked with
 * the real client: test/real-client/rescue-codex.test.ts and tui-codex.test.ts).
 */
export const CODEX_GRANT_LINE =
  'ctxshed: codex gets the proxy as -c openai_base_url; no read grant needed: its default sandbox lets its shell read elided files back';

/** Codex's own default for API-key sign-in: where its requests go when nothing else is named. */
export const CODEX_DEFAULT_UPSTREAM = 'https://api.openai.com/v1';

const CONFIG_KEY = 'openai_base_url';
/** Programs that run a package or script named in their arguments. */
const LAUNCHERS = new Set(['npx', 'pnpx', 'bunx', 'node', 'pnpm', 'yarn', 'npm', 'bun']);

/**
 * Where Codex is in the command line: -1 when the command itself is Codex, the index of the
 * argument that names it when a launcher runs it (`npx -y @openai/codex exec ...`), else undefined.
 */
export function codexPosition(command: string, args: readonly string[]): number | undefined {
  if (isCodexName(command)) return -1;
  if (!LAUNCHERS.has(baseName(command))) return undefined;
  const at = args.findIndex(isCodexName);
  return at === -1 ? undefined : at;
}

function isCodexName(word: string): boolean {
  const name = baseName(word).replace(/@[^/@]*$/, ''); // a version spec: @openai/codex@0.169.0
  return name === 'codex' || name === 'codex.js' || name === 'codex.exe' || word.replace(/@[^/@]*$/, '') === '@openai/codex';
}

function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/**
 * The user's own `openai_base_url` among Codex's arguments (`-c k=v`, `-ck=v`, `--config k=v`,
 * `--config=k=v`), and the arguments without it: it becomes the upstream, and a later `-c` of
 * theirs would otherwise override the proxy's.
 */
export function takeBaseUrlArg(args: readonly string[]): { readonly baseUrl: string | undefined; readonly rest: string[] } {
  let baseUrl: string | undefined;
  const rest: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    let setting: string | undefined;
    let skip = 0;
    if ((arg === '-c' || arg === '--config') && i + 1 < args.length) {
      setting = args[i + 1];
      skip = 1;
    } else if (arg.startsWith('--config=')) setting = arg.slice('--config='.length);
    else if (arg.startsWith('-c') && arg.length > 2) setting = arg.slice(2);
    const value = setting === undefined ? undefined : baseUrlSetting(setting);
    if (value === undefined) {
      rest.push(arg);
      continue;
    }
    baseUrl = value;
    i += skip;
  }
  return { baseUrl, rest };
}

/** The value of `openai_base_url=<TOML value>`; Codex takes a value that is not TOML as a literal string. */
function baseUrlSetting(setting: string): string | undefined {
  const eq = setting.indexOf('=');
  if (eq === -1 || setting.slice(0, eq).trim() !== CONFIG_KEY) return undefined;
  const raw = setting.slice(eq + 1).trim();
  return tomlString(raw) ?? raw;
}

/** The top-level `openai_base_url` of a config.toml (before any `[table]`), when it is a string. */
export function baseUrlFromConfigToml(text: string): string | undefined {
  for (const line of text.split(/\r?\n/)) {
    const trimmed = line.trim();
    if (trimmed.startsWith('[')) return undefined; // top-level keys come before the first table
    const m = /^openai_base_url\s*=\s*(.*)$/.exec(trimmed);
    if (m !== null) return tomlString(stripComment(m[1]!));
  }
  return undefined;
}

/** A TOML basic ("...") or literal ('...') single-line string's value, else undefined. */
function tomlString(raw: string): string | undefined {
  if (raw.length >= 2 && raw.startsWith("'") && raw.endsWith("'")) return raw.slice(1, -1);
  if (raw.length >= 2 && raw.startsWith('"') && raw.endsWith('"')) {
    try {
      return JSON.parse(raw) as string; // URLs need no escapes beyond what JSON and TOML share
    } catch {
      return undefined;
    }
  }
  return undefined;
}

function stripComment(value: string): string {
  const v = value.trim();
  const quote = v[0];
  if (quote === '"' || quote === "'") {
    const close = v.indexOf(quote, 1);
    return close === -1 ? v : v.slice(0, close + 1);
  }
  return v.replace(/\s+#.*$/, '');
}

/** Codex's arguments with `-c openai_base_url="<url>"` put right after the word that runs Codex. */
export function withBaseUrl(args: readonly string[], position: number, url: string): string[] {
  const at = position + 1;
  return [...args.slice(0, at), '-c', `${CONFIG_KEY}=${JSON.stringify(url)}`, ...args.slice(at)];
}
