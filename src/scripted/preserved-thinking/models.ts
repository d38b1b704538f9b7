/**
 * Which models run the prefix check on thinking blocks sent back, and which model reads which
 * model's blocks. From the Anthropic docs "Preserved thinking" ("Switching models
 * mid-conversation") and "Prefix checks on thinking blocks" (its supported-models list).
 */

/** The models that check every thinking block sent back (the docs' supported-models list). */
export const PREFIX_CHECK_MODELS: readonly string[] = [
  'claude-fable-5-2',
  'claude-mythos-5-2',
  'claude-fable-5-1',
  'claude-mythos-5-1',
  'claude-opus-5-5',
  'claude-sonnet-5-5',
  'claude-haiku-5-5',
];

/** A model id without a trailing `-YYYYMMDD` snapshot date. */
export function baseModelOf(model: string): string {
  return model.replace(/-\d{8}$/, '');
}

/** True when `model` runs the prefix check. */
export function isPrefixCheckModel(model: string): boolean {
  return PREFIX_CHECK_MODELS.includes(baseModelOf(model));
}

const FABLE_MYTHOS_5_1 = ['claude-fable-5-1', 'claude-mythos-5-1'];
const FABLE_MYTHOS_5_2 = ['claude-fable-5-2', 'claude-mythos-5-2'];
const FIVE_FIVE = ['claude-opus-5-5', 'claude-sonnet-5-5', 'claude-haiku-5-5'];

/** A model from before the preserved-thinking generation (Opus 5, Sonnet 4.5 ...). */
function isEarlier(model: string): boolean {
  return !isPrefixCheckModel(model);
}

/**
 * True when `reader` can use a thinking block `producer` wrote. Documented: every model reads its
 * own; Fable 5.1 and Mythos 5.1 read each other, every earlier model and (Claude API) Opus 5.5;
 * Opus 5.5 reads Opus 5 and earlier Opus, Sonnet and Haiku, never Fable or Mythos; no earlier
 * model reads Fable 5.1 or Mythos 5.1. Assumed (the docs say nothing): Fable and Mythos 5.2 read
 * what 5.1 reads plus 5.1 itself; Sonnet and Haiku 5.5 read like Opus 5.5.
 */
export function canRead(reader: string, producer: string): boolean {
  const r = baseModelOf(reader);
  const p = baseModelOf(producer);
  if (r === p) return true;
  if (FABLE_MYTHOS_5_2.includes(r)) return FABLE_MYTHOS_5_2.includes(p) || FABLE_MYTHOS_5_1.includes(p) || p === 'claude-opus-5-5' || isEarlier(p);
  if (FABLE_MYTHOS_5_1.includes(r)) return FABLE_MYTHOS_5_1.includes(p) || p === 'claude-opus-5-5' || isEarlier(p);
  if (FIVE_FIVE.includes(r)) return isEarlier(p) && !/^claude-(fable|mythos)/.test(p);
  // An earlier model reads no preserved-thinking model's blocks.
  return isEarlier(p);
}
