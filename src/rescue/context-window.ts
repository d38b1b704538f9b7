/**
 * The context window a conversation's fullness is measured against (docs/design.md "Fullness"):
 * the core's table (core/context-window.ts) fed from the edge.
 */
import { decideContextWindow } from '../core/index.js';

export { DEFAULT_CONTEXT_WINDOW, LONG_CONTEXT_WINDOW } from '../core/index.js';

/**
 * `--window` when given; else the model's window (Opus 5 and 5.5 and the other 1M models); else
 * 1,000,000 with the `context-1m` beta; else 200,000.
 */
export function contextWindowFor(override: number | undefined, betaHeader: string | readonly string[] | undefined, model?: string): number {
  return decideContextWindow({ override, model, betas: betaHeader });
}
