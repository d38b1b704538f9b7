/**
 * Context windows of OpenAI models, as Codex measures them (docs/openai.md, "The window"). Pure.
 *
 * Source: the model list bundled in the Codex 0.171.0 binary (`strings` on
 * test/clients/node_modules/@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl/bin/codex: each model's
 * `slug` and `context_window`), checked 2026-12-02. Codex compacts against this window, so it is
 * the window a Codex conversation's fullness is read against. OpenAI's model pages give the API's
 * own limits, larger: gpt-6.2-sol and gpt-6.2-astra 1,050,000 context, 922,000 max input
 * (https://developers.openai.com/api/docs/models/gpt-6.2-sol, .../gpt-6.2-astra); a request over
 * Codex's window but under the API's is accepted. What changed from Codex 0.169.0's list (the same
 * `strings` on the 0.169.0 binary): gpt-6.1-sol went from 272,000 to 500,000; gpt-6.2-sol and
 * gpt-6.2-astra are new. A Codex older than 0.171.0 (its release read from the request's
 * `user-agent`, `codex_exec/0.169.0 …`) is measured against 0.169.0's list, where they differ.
 */

/** One model of the list: its id (Codex's `slug`) and window. */
export interface OpenAiWindowRow {
  readonly model: string;
  readonly window: number;
}

export const OPENAI_MODEL_WINDOWS: readonly OpenAiWindowRow[] = [
  { model: 'gpt-6.2-sol', window: 500_000 }, // Codex 0.171.0's default
  { model: 'gpt-6.2-astra', window: 272_000 },
  { model: 'gpt-6-astra', window: 272_000 },
  { model: 'gpt-6.1-sol', window: 500_000 },
  { model: 'gpt-6.1-terra', window: 500_000 },
  { model: 'gpt-6-sol', window: 272_000 },
  { model: 'gpt-6-luna', window: 272_000 },
  { model: 'gpt-5.6-sol', window: 272_000 },
  { model: 'gpt-5.6-terra', window: 272_000 },
  { model: 'gpt-5.6-luna', window: 272_000 },
  { model: 'gpt-5.5', window: 272_000 },
  { model: 'codex-auto-review', window: 272_000 },
  // Hidden in Codex's picker (`"visibility": "hide"`), listed all the same.
  { model: 'gpt-daybreak-blue-latest', window: 272_000 },
  { model: 'gpt-daybreak-red-latest', window: 372_000 },
];

/** Where Codex 0.169.0's list differs from 0.171.0's: the window a Codex before 0.171.0 compacts at. */
export const CODEX_BEFORE_0_171_WINDOWS: readonly OpenAiWindowRow[] = [{ model: 'gpt-6.1-sol', window: 272_000 }];

/** A Codex release, `[major, minor, patch]`. */
export type CodexRelease = readonly [number, number, number];

/** The release in Codex's `user-agent` (`codex_exec/0.169.0 (…)`, `codex_cli_rs/0.171.0 …`), else undefined. */
export function codexReleaseOf(userAgent: string | undefined): CodexRelease | undefined {
  const m = /^codex[a-z_]*\/(\d+)\.(\d+)\.(\d+)/i.exec(userAgent ?? '');
  return m === null ? undefined : [Number(m[1]), Number(m[2]), Number(m[3])];
}

/**
 * The model's window from the table, or `undefined` for a model it does not list. The id as sent,
 * case-blind, or with a dated snapshot suffix (`gpt-5.5-2026-08-01`); nothing else is guessed.
 * `release`: the Codex that sent it; before 0.171.0, 0.169.0's list wins where it differs.
 */
export function openAiModelWindow(model: string, release?: CodexRelease): number | undefined {
  const id = model.trim().toLowerCase();
  if (release !== undefined && isBefore(release, [0, 171, 0])) {
    const earlier = windowIn(CODEX_BEFORE_0_171_WINDOWS, id);
    if (earlier !== undefined) return earlier;
  }
  return windowIn(OPENAI_MODEL_WINDOWS, id);
}

function isBefore(a: CodexRelease, b: CodexRelease): boolean {
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return (a[i] as number) < (b[i] as number);
  return false;
}

function windowIn(rows: readonly OpenAiWindowRow[], id: string): number | undefined {
  for (const row of rows) {
    if (id === row.model) return row.window;
    if (id.startsWith(`${row.model}-`) && /^\d{4}-\d{2}-\d{2}$/.test(id.slice(row.model.length + 1))) return row.window;
  }
  return undefined;
}
