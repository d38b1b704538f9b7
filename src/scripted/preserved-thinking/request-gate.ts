/**
 * The scripted API's side of preserved thinking: which requests are checked, the check's input
 * read from a request, and the record kept of each check (what tests assert on).
 */
import type { IncomingHttpHeaders } from 'node:http';
import { BINDING_BETA, checkThinking, type CheckInput, type ThinkingCheck } from './check-thinking.js';
import { isPrefixCheckModel } from './models.js';

/** How the scripted API models preserved thinking. */
export interface PreservedThinkingOptions {
  /**
   * What the account does with a block that fails the prefix check when the request sets no
   * `prefix_mismatch_behavior`: `error` (accounts created on or after 2026-08-31, the default)
   * or `allow` (older accounts: the block reaches the model, flagged under the beta header).
   */
  readonly mismatch?: 'error' | 'allow';
}

/** One checked request: what it sent back and what became of it. */
export interface ThinkingCheckRecord {
  /** The request's `index` on the API. */
  readonly index: number;
  readonly endpoint: 'messages' | 'count_tokens';
  readonly model: string;
  /** Thinking and redacted_thinking blocks in the request. */
  readonly sent: number;
  /** Of those, the ones that passed both checks. */
  readonly valid: number;
  /** Dropped before the model (unreadable, or failing under `drop_block`). */
  readonly dropped: number;
  /** True when the request got a 400 from the check. */
  readonly refused: boolean;
  /** The 400's message when refused. */
  readonly message?: string;
  readonly check: ThinkingCheck;
}

/** The check's input for a request body, or `undefined` when its model runs no prefix check. */
export function checkInputOf(body: unknown, headers: IncomingHttpHeaders, options: PreservedThinkingOptions): CheckInput | undefined {
  if (!isObject(body) || typeof body['model'] !== 'string' || !isPrefixCheckModel(body['model'])) return undefined;
  const thinking = isObject(body['thinking']) ? body['thinking'] : {};
  const binding = thinking['block_binding'];
  return {
    model: body['model'],
    system: body['system'],
    tools: body['tools'],
    messages: Array.isArray(body['messages']) ? body['messages'] : [],
    requested: isObject(binding) ? binding['prefix_mismatch_behavior'] : undefined,
    hasBlockBinding: binding !== undefined,
    betaHeader: betasOf(headers).includes(BINDING_BETA),
    accountDefault: options.mismatch ?? 'error',
  };
}

/** Runs the check and records it. */
export function recordCheck(index: number, endpoint: ThinkingCheckRecord['endpoint'], input: CheckInput): ThinkingCheckRecord {
  const check = checkThinking(input);
  const { verdicts, outcome } = check;
  const dropped = outcome.kind === 'answer' ? outcome.transformations.filter((t) => t.type === 'thinking_dropped').length : 0;
  return {
    index,
    endpoint,
    model: input.model,
    sent: countThinking(input.messages),
    valid: verdicts.filter((v) => v.verdict === 'valid').length,
    dropped,
    refused: outcome.kind === 'refuse',
    ...(outcome.kind === 'refuse' ? { message: outcome.message } : {}),
    check,
  };
}

/** The values of every `anthropic-beta` header, split at commas. */
export function betasOf(headers: IncomingHttpHeaders): string[] {
  const raw = headers['anthropic-beta'];
  const values = Array.isArray(raw) ? raw : raw === undefined ? [] : [raw];
  return values
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter((v) => v !== '');
}

/** The text of a reply's thinking block: empty unless the request asked for summarized thinking. */
export function thinkingTextOf(body: unknown, index: number): string {
  const thinking = isObject(body) && isObject(body['thinking']) ? body['thinking'] : {};
  return thinking['display'] === 'summarized' ? `Thought about request ${index}.` : '';
}

function countThinking(messages: readonly unknown[]): number {
  let n = 0;
  for (const m of messages) {
    const content = isObject(m) ? m['content'] : undefined;
    if (Array.isArray(content)) n += content.filter((b) => isObject(b) && (b['type'] === 'thinking' || b['type'] === 'redacted_thinking')).length;
  }
  return n;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
