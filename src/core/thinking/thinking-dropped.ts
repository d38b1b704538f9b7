/**
 * The thinking blocks the API dropped from a request, as its response's `input_transformations`
 * lists them (Anthropic docs, "Preserved thinking"): under `prefix_mismatch_behavior: "drop_block"`
 * a block failing the prefix check is dropped instead of the request refused, and a block the
 * model cannot read is dropped on any account. `thinking_mismatch_allowed` entries (an older
 * account letting a failing block through) were not dropped, so they are not counted.
 */

/** Why the API dropped a block, as its docs name them; `other` is any reason they do not (yet). */
export const THINKING_DROP_REASONS = ['prefix_binding_mismatch', 'model_binding_mismatch', 'other'] as const;
export type ThinkingDropReason = (typeof THINKING_DROP_REASONS)[number];

/** The dropped blocks of one response: how many, and how many for each reason. */
export interface ThinkingDropped {
  readonly count: number;
  readonly byReason: Readonly<Partial<Record<ThinkingDropReason, number>>>;
}

/**
 * Counts the `thinking_dropped` entries of an `input_transformations` value (anything: it is the
 * upstream's). Undefined when it lists none, or is not an array. The reason is mapped onto the
 * closed list so nothing the upstream writes reaches the wire log or a metric label verbatim.
 */
export function countThinkingDropped(transformations: unknown): ThinkingDropped | undefined {
  if (!Array.isArray(transformations)) return undefined;
  const byReason: Partial<Record<ThinkingDropReason, number>> = {};
  let count = 0;
  for (const entry of transformations as unknown[]) {
    if (typeof entry !== 'object' || entry === null || (entry as Record<string, unknown>)['type'] !== 'thinking_dropped') continue;
    const reason = dropReasonOf((entry as Record<string, unknown>)['reason']);
    byReason[reason] = (byReason[reason] ?? 0) + 1;
    count += 1;
  }
  return count === 0 ? undefined : { count, byReason };
}

function dropReasonOf(value: unknown): ThinkingDropReason {
  return value === 'prefix_binding_mismatch' || value === 'model_binding_mismatch' ? value : 'other';
}
