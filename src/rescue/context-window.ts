/** The context window a conversation's fullness is measured against (docs/design.md "Fullness"). */

export const DEFAULT_CONTEXT_WINDOW = 200_000;
export const LONG_CONTEXT_WINDOW = 1_000_000;

/**
 * `--window` when given; else 1,000,000 when the request asks for the 1M-context beta
 * (`anthropic-beta: context-1m-...`); else 200,000.
 */
export function contextWindowFor(override: number | undefined, betaHeader: string | string[] | undefined): number {
  if (override !== undefined) return override;
  const betas = Array.isArray(betaHeader) ? betaHeader.join(',') : (betaHeader ?? '');
  return /(^|[\s,])context-1m-/.test(betas) ? LONG_CONTEXT_WINDOW : DEFAULT_CONTEXT_WINDOW;
}
