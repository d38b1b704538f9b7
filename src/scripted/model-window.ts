/**
 * The scripted API's own table of context windows: what the real Messages API refuses a prompt
 * over ("prompt is too long: N tokens > M maximum"). Written apart from the proxy's table
 * (core/context-window.ts) on purpose: the scripted API checks ctxshed's output, so it must not
 * share the code it checks. From Anthropic's model pages (platform.claude.com/docs/en/models/...,
 * read 2026-12-01): the 5-series models (Opus 5 and 5.5, Sonnet 5 and 5.5, Haiku 5.5, Fable,
 * Mythos) and Opus 4.6 to 4.8 and Sonnet 4.6 take 1,000,000 tokens; every other model 200,000,
 * or 1,000,000 with the `context-1m` beta.
 */

const ONE_MILLION = 1_000_000;
const TWO_HUNDRED_K = 200_000;

/** Model families with a 1M window: an id that is one of these, or one followed by `-` (a version or date). */
const ONE_MILLION_FAMILIES = [
  'claude-opus-5',
  'claude-sonnet-5',
  'claude-haiku-5',
  'claude-fable-5',
  'claude-mythos',
  'claude-opus-4-6',
  'claude-opus-4-7',
  'claude-opus-4-8',
  'claude-sonnet-4-6',
] as const;

/** The most prompt tokens the real API takes for `model`, given the request's `anthropic-beta` header. */
export function scriptedModelWindow(model: string | undefined, betas: string | readonly string[] | undefined): number {
  const id = (model ?? '').toLowerCase().replace(/\[1m\]$/, '');
  if (model?.toLowerCase().endsWith('[1m]')) return ONE_MILLION;
  if (ONE_MILLION_FAMILIES.some((family) => id === family || id.startsWith(`${family}-`))) return ONE_MILLION;
  const beta = typeof betas === 'string' ? betas : (betas ?? []).join(',');
  return beta.split(',').some((b) => b.trim().startsWith('context-1m-')) ? ONE_MILLION : TWO_HUNDRED_K;
}
