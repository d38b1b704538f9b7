/**
 * Context windows of OpenAI models, as Codex measures them (docs/openai.md, "The window"). Pure.
 *
 * Source: the model list bundled in the Codex 0.171.0 binary (`strings` on
 * node_modules/@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl/bin/codex: each model's
 * `slug` and `context_window`), checked 2026-12-02. Codex compacts against this window, so it is
 * the window a Codex conversation's fullness is read against. OpenAI's model pages give the API's
 * own limits, larger: gpt-6.2-sol and gpt-6.2-astra 1,050,000 context, 922,000 max input
 * (https://developers.openai.com/api/docs/models/gpt-6.2-sol, .../gpt-6.2-astra); a request over
 * Codex's window but under the API's is accepted. What changed from Codex 0.169.0's list:
 * gpt-6.1-sol went from 272,000 to 500,000; gpt-6.2-sol and gpt-6.2-astra are new.
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

/**
 * The model's window from the table, or `undefined` for a model it does not list. The id as sent,
 * case-blind, or with a dated snapshot suffix (`gpt-5.5-2026-08-01`); nothing else is guessed.
 */
export function openAiModelWindow(model: string): number | undefined {
  const id = model.trim().toLowerCase();
  for (const row of OPENAI_MODEL_WINDOWS) {
    if (id === row.model) return row.window;
    if (id.startsWith(`${row.model}-`) && /^\d{4}-\d{2}-\d{2}$/.test(id.slice(row.model.length + 1))) return row.window;
  }
  return undefined;
}
