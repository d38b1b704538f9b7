/**
 * The context window a conversation's fullness is measured against (docs/rescue.md "Fullness").
 *
 * Windows by model, from Anthropic's model pages (checked 2026-12-01):
 * https://platform.claude.com/docs/en/models/overview and each model's own page, e.g.
 * https://platform.claude.com/docs/en/models/opus-5/overview ("How it compares to the current
 * lineup": Fable 5.1, Opus 5.5, Opus 5, Sonnet 5.5 and Haiku 5.5 all 1M),
 * .../models/opus-4-6/overview, .../opus-4-8/overview, .../sonnet-4-6/overview,
 * .../sonnet-5/overview (1M), .../sonnet-4-5/overview and .../haiku-4-5/overview (200K);
 * Opus 4.7 is 1M on its Amazon Bedrock model card. A model not in the table (Opus 4.5 and
 * older, Sonnet 4.5 and older, Haiku 4.5 and older, any id we do not know) falls through to the
 * `context-1m` beta, then 200,000: the window the API gave every model before these.
 */

export const DEFAULT_CONTEXT_WINDOW = 200_000;
export const LONG_CONTEXT_WINDOW = 1_000_000;

/** One row: model ids that start with `prefix` (then end, or go on with `-` or `@`) have `window` tokens. */
interface WindowRow {
  readonly prefix: string;
  readonly window: number;
}

/** Longest prefix first is not needed: no prefix here is a prefix of another's family. */
const MODEL_WINDOWS: readonly WindowRow[] = [
  { prefix: 'claude-opus-5', window: LONG_CONTEXT_WINDOW }, // Opus 5, Opus 5.5 (claude-opus-5-5)
  { prefix: 'claude-sonnet-5', window: LONG_CONTEXT_WINDOW }, // Sonnet 5, Sonnet 5.5
  { prefix: 'claude-haiku-5', window: LONG_CONTEXT_WINDOW }, // Haiku 5.5
  { prefix: 'claude-fable-5', window: LONG_CONTEXT_WINDOW }, // Fable 5, 5.1, 5.2
  { prefix: 'claude-mythos', window: LONG_CONTEXT_WINDOW }, // Mythos 5, Mythos Preview
  { prefix: 'claude-opus-4-6', window: LONG_CONTEXT_WINDOW },
  { prefix: 'claude-opus-4-7', window: LONG_CONTEXT_WINDOW },
  { prefix: 'claude-opus-4-8', window: LONG_CONTEXT_WINDOW },
  { prefix: 'claude-sonnet-4-6', window: LONG_CONTEXT_WINDOW },
];

/** What the window is decided from. */
export interface WindowInput {
  /** `--window`, when given. */
  readonly override?: number | undefined;
  /** The request body's top-level `model`, when read. */
  readonly model?: string | undefined;
  /** The `anthropic-beta` header's values. */
  readonly betas?: string | readonly string[] | undefined;
}

/**
 * `--window` when given; else the model's window from the table; else 1,000,000 when the request
 * asks for the 1M-context beta (`anthropic-beta: context-1m-...`); else 200,000.
 */
export function decideContextWindow(input: WindowInput): number {
  if (input.override !== undefined) return input.override;
  const byModel = input.model === undefined ? undefined : modelContextWindow(input.model);
  if (byModel !== undefined) return byModel;
  const betas = typeof input.betas === 'string' ? input.betas : (input.betas ?? []).join(',');
  return /(^|[\s,])context-1m-/.test(betas) ? LONG_CONTEXT_WINDOW : DEFAULT_CONTEXT_WINDOW;
}

/** The model's window from the table, or `undefined` for a model it does not list. */
export function modelContextWindow(model: string): number | undefined {
  // Cloud ids wrap the same names (`anthropic.claude-opus-4-8-v1`, `claude-opus-5@20260724`),
  // and Claude Code may tag a model `[1m]`: look for the family anywhere, case-blind.
  const id = model.toLowerCase();
  if (id.includes('[1m]')) return LONG_CONTEXT_WINDOW;
  for (const row of MODEL_WINDOWS) {
    const at = id.indexOf(row.prefix);
    if (at < 0) continue;
    const before = at === 0 ? '' : id[at - 1];
    const after = id[at + row.prefix.length];
    // `claude-opus-4-6` must not match `claude-opus-4-60`, nor `xclaude-opus-5` anything.
    if ((before === '' || before === '.' || before === '/' || before === ':') && (after === undefined || after === '-' || after === '@' || after === '[')) {
      return row.window;
    }
  }
  return undefined;
}
