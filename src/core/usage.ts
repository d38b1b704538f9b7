/** The token usage the API reports for one response, as plain data (read by proxy/usage-tap.ts). */

/** Token usage of one Messages API response; a field the API left out is 0. */
export interface Usage {
  readonly inputTokens: number;
  readonly cacheCreationInputTokens: number;
  readonly cacheReadInputTokens: number;
  readonly outputTokens: number;
  readonly model?: string;
  /** `usage.cache_creation`, when the API splits cache writes by lifetime. */
  readonly cacheCreation?: { readonly ephemeral5m?: number; readonly ephemeral1h?: number };
}

/** What fills the window (docs/design.md "Fullness"): input + cache creation + cache read tokens. */
export function contextTokensOf(usage: Usage): number {
  return usage.inputTokens + usage.cacheCreationInputTokens + usage.cacheReadInputTokens;
}
