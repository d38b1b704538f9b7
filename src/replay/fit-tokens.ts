/**
 * Tokens from bytes, fitted on the transcript itself: `tokens = prefix(conversation) + ratio x
 * bytes of messages`. The prefix stands for the system prompt and tools, which transcripts do not
 * hold; each conversation gets its own (a subagent has another system prompt), the ratio is shared
 * by the whole session. Least squares with a per-conversation intercept. Pure.
 */
import { DEFAULT_TOKENS_PER_BYTE } from '../core/index.js';

/** One observation: a request's message bytes and the tokens the provider reported for it. */
export interface TokenSample {
  readonly conversation: string;
  readonly bytes: number;
  readonly tokens: number;
}

/** The fitted model. */
export interface TokenModel {
  readonly tokensPerByte: number;
  /** Conversation id -> fitted prefix tokens (system prompt and tools). */
  readonly prefixTokens: ReadonlyMap<string, number>;
}

/** Fits the ratio and each conversation's prefix. Falls back to the core's default ratio without spread. */
export function fitTokens(samples: readonly TokenSample[]): TokenModel {
  const groups = new Map<string, TokenSample[]>();
  for (const s of samples) groups.set(s.conversation, [...(groups.get(s.conversation) ?? []), s]);
  let num = 0;
  let den = 0;
  const means = new Map<string, { bytes: number; tokens: number }>();
  for (const [id, group] of groups) {
    const bytes = group.reduce((a, s) => a + s.bytes, 0) / group.length;
    const tokens = group.reduce((a, s) => a + s.tokens, 0) / group.length;
    means.set(id, { bytes, tokens });
    for (const s of group) {
      num += (s.bytes - bytes) * (s.tokens - tokens);
      den += (s.bytes - bytes) ** 2;
    }
  }
  const fitted = den > 0 ? num / den : Number.NaN;
  const tokensPerByte = Number.isFinite(fitted) && fitted > 0 ? fitted : DEFAULT_TOKENS_PER_BYTE;
  const prefixTokens = new Map<string, number>();
  for (const [id, m] of means) prefixTokens.set(id, Math.max(0, m.tokens - tokensPerByte * m.bytes));
  return { tokensPerByte, prefixTokens };
}
