/** The token model of a session replay (replay-session.ts): its message bytes fitted to its recorded usage. */
import { DEFAULT_TOKENS_PER_BYTE } from '../core/index.js';
import { fitTokens, type TokenModel } from './fit-tokens.js';
import type { RebuiltConversation } from './rebuild-conversations.js';
import { BodyBuilder } from './request-body.js';

/** First pass: every request's message bytes against its recorded context, fitted. */
export function fitSessionModel(conversations: readonly RebuiltConversation[], builders: ReadonlyMap<string, BodyBuilder>): TokenModel {
  const samples = [];
  for (const c of conversations) {
    const builder = builders.get(c.id) ?? new BodyBuilder();
    for (const r of c.requests) {
      if (r.estimated === true) continue; // its usage counted another (compacted) prompt
      const tokens = r.usage.input + r.usage.cacheRead + r.usage.cacheWrite;
      if (tokens > 0) samples.push({ conversation: c.id, bytes: builder.regionLength(r.model, r.messages), tokens });
    }
  }
  const fitted = fitTokens(samples);
  // A conversation without any usage gets the median prefix of the others.
  const prefixes = [...fitted.prefixTokens.values()].sort((a, b) => a - b);
  const fallback = prefixes[Math.floor(prefixes.length / 2)] ?? 0;
  const prefixTokens = new Map(fitted.prefixTokens);
  for (const c of conversations) if (!prefixTokens.has(c.id)) prefixTokens.set(c.id, fallback);
  return { tokensPerByte: fitted.tokensPerByte > 0 ? fitted.tokensPerByte : DEFAULT_TOKENS_PER_BYTE, prefixTokens };
}
