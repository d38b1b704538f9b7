/**
 * The check a preserved-thinking model runs on the thinking blocks a request sends back, from the
 * Anthropic docs "Preserved thinking" and "Prefix checks on thinking blocks":
 * - a block the current model cannot read is dropped without an error (`model_binding_mismatch`);
 * - a block whose prefix differs from the one it was signed with fails, and so does one whose
 *   predecessor is not the block it followed when it was made (a block left out of the middle,
 *   moved, or put back before it). Removing blocks from the start, the end, or all of them is fine:
 *   a block with no kept block before it does not compare its predecessor;
 * - a failing block takes with it every later block whose chain runs through it (their own prefix
 *   or predecessor fails too), while a block made after the edit, on a request that dropped the
 *   stale ones, stays valid (the docs' keep-tail example);
 * - what a failure does: `error` refuses the request with the documented 400 naming the first
 *   failing block; `drop_block` drops the failing blocks and lists them in `input_transformations`;
 *   `allow` (an account from before 2026-08-31 whose request sets no behavior) lets them through,
 *   judging each on its own, and lists them as `thinking_mismatch_allowed`.
 * A signature this API did not write (or an empty one) is refused whatever the behavior, as the
 * API refuses a tampered signature.
 */
import { contentBlocks, createPrefixDigester, isThinkingBlock, type BlockPosition, type PrefixSource } from './canonical-prefix.js';
import { canRead } from './models.js';
import { parseSignature, previousLinkOf, signatureOf } from './signature.js';

/** What the check found for one thinking block. */
export type ThinkingVerdict = 'valid' | 'prefix_mismatch' | 'model_binding_mismatch' | 'invalid_signature';

/** One thinking block of the request and its verdict. */
export interface BlockVerdict {
  readonly path: string;
  readonly position: BlockPosition;
  readonly signature: string;
  readonly verdict: ThinkingVerdict;
}

/** One entry of a response's `input_transformations` (the docs give these two types). */
export interface InputTransformation {
  readonly type: 'thinking_dropped' | 'thinking_mismatch_allowed';
  readonly path: string;
  readonly reason: 'prefix_binding_mismatch' | 'model_binding_mismatch';
}

/** What happens when a block fails the prefix check: the request's choice, else the account's. */
export type MismatchBehavior = 'error' | 'drop_block' | 'allow';

/** The request's outcome: answered (with what the model saw), or refused with a 400. */
export type ThinkingOutcome =
  | {
      readonly kind: 'answer';
      readonly behavior: MismatchBehavior;
      readonly transformations: readonly InputTransformation[];
      readonly seen: readonly BlockVerdict[];
    }
  | { readonly kind: 'refuse'; readonly message: string };

/** The whole check of one request. */
export interface ThinkingCheck {
  readonly verdicts: readonly BlockVerdict[];
  readonly outcome: ThinkingOutcome;
}

/** The beta header value that lets a request set `block_binding` and see `input_transformations`. */
export const BINDING_BETA = 'thinking-binding-controls-2026-08-01';

/** The request as the check needs it. */
export interface CheckInput extends PrefixSource {
  readonly model: string;
  /** `thinking.block_binding.prefix_mismatch_behavior` as sent (`undefined`: not set). */
  readonly requested: unknown;
  readonly hasBlockBinding: boolean;
  readonly betaHeader: boolean;
  /** What the account does when the request sets no behavior. */
  readonly accountDefault: 'error' | 'allow';
}

/** Checks every thinking block of a request (see the file's comment). */
export function checkThinking(input: CheckInput): ThinkingCheck {
  if (input.hasBlockBinding && !input.betaHeader) return refusedEarly('thinking.block_binding: Extra inputs are not permitted');
  if (input.hasBlockBinding && input.requested !== 'error' && input.requested !== 'drop_block') {
    return refusedEarly(`thinking.block_binding.prefix_mismatch_behavior: Input should be 'error' or 'drop_block'`);
  }
  const behavior: MismatchBehavior = input.requested === 'error' || input.requested === 'drop_block' ? input.requested : input.accountDefault;
  const verdicts = judgeBlocks(input, behavior === 'allow');
  const tampered = verdicts.find((v) => v.verdict === 'invalid_signature');
  if (tampered !== undefined) return { verdicts, outcome: { kind: 'refuse', message: `${tampered.path}: Invalid \`signature\` in \`thinking\` block` } };
  const failing = verdicts.find((v) => v.verdict === 'prefix_mismatch');
  if (failing !== undefined && behavior === 'error')
    return { verdicts, outcome: { kind: 'refuse', message: prefixMismatchMessage(failing.path, input.betaHeader) } };
  const transformations = verdicts.flatMap((v): InputTransformation[] => {
    if (v.verdict === 'model_binding_mismatch') return [{ type: 'thinking_dropped', path: v.path, reason: 'model_binding_mismatch' }];
    if (v.verdict !== 'prefix_mismatch') return [];
    return [{ type: behavior === 'allow' ? 'thinking_mismatch_allowed' : 'thinking_dropped', path: v.path, reason: 'prefix_binding_mismatch' }];
  });
  const seen = verdicts.filter((v) => v.verdict === 'valid' || (behavior === 'allow' && v.verdict === 'prefix_mismatch'));
  return { verdicts, outcome: { kind: 'answer', behavior, transformations, seen } };
}

/** The documented 400 message for a block that fails the prefix check. */
export function prefixMismatchMessage(path: string, betaHeader: boolean): string {
  const base = `${path}: Invalid \`signature\` in \`thinking\` block. The block is bound to a different conversation. Remove the block, or set \`thinking.block_binding.prefix_mismatch_behavior\` to "drop_block".`;
  return betaHeader ? base : `${base} That setting requires the \`${BINDING_BETA}\` value in the \`anthropic-beta\` header.`;
}

/** Every thinking block in request order, with its verdict. */
function judgeBlocks(input: CheckInput, independent: boolean): BlockVerdict[] {
  const out: BlockVerdict[] = [];
  const digest = createPrefixDigester(input);
  input.messages.forEach((message, m) => {
    const blocks = typeof message === 'object' && message !== null ? contentBlocks((message as Record<string, unknown>)['content']) : [];
    blocks.forEach((block, b) => {
      if (!isThinkingBlock(block)) return;
      const raw = signatureOf(block);
      const position = { message: m, block: b };
      const verdict = judgeBlock(input.model, digest(position), raw, out, independent, position);
      out.push({ path: `messages.${m}.content.${b}`, position, signature: typeof raw === 'string' ? raw : '', verdict });
    });
  });
  return out;
}

function judgeBlock(model: string, prefix: string, raw: unknown, earlier: readonly BlockVerdict[], independent: boolean, at: BlockPosition): ThinkingVerdict {
  const facts = parseSignature(raw);
  if (facts === undefined) return 'invalid_signature';
  if (!canRead(model, facts.model)) return 'model_binding_mismatch';
  if (prefix !== facts.prefix) return 'prefix_mismatch';
  // Enforced, a failed block is gone, so the block before this one is the last that passed;
  // recorded only, every block the model reads counts.
  const kept = earlier.filter((v) => v.verdict === 'valid' || (independent && v.verdict === 'prefix_mismatch'));
  const before = kept[kept.length - 1];
  if (before !== undefined && previousLinkOf(before.signature) !== facts.previous) return 'prefix_mismatch';
  const root = kept[0]?.position.message ?? at.message;
  return root < facts.root ? 'prefix_mismatch' : 'valid';
}

function refusedEarly(message: string): ThinkingCheck {
  return { verdicts: [], outcome: { kind: 'refuse', message } };
}
