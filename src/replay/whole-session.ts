/**
 * The prompt of a stitched request (stitch-transcript.ts), re-estimated: the client reported the
 * usage of its compacted prompt, so the stitched prompt's tokens come from its bytes, by the
 * session's own fit (fit-session-model.ts, which leaves estimated requests out). Input and output
 * tokens and the cache writes stay as recorded (the TTL is read from them); the cache read takes
 * the rest. Pure.
 */
import { fitSessionModel } from './fit-session-model.js';
import type { TokenModel } from './fit-tokens.js';
import type { RebuiltConversation } from './rebuild-conversations.js';
import { BodyBuilder } from './request-body.js';

/** The conversations with every estimated request's prompt re-estimated from its bytes. */
export function reestimateUsage(conversations: readonly RebuiltConversation[]): RebuiltConversation[] {
  return reestimateWithModel(conversations, new Map()).conversations;
}

/**
 * `reestimateUsage`, with the fitted model it used (none when nothing was estimated): the replay
 * that follows fits the same requests (estimated ones are left out of every fit), so it takes this
 * one, and `builders` (each conversation's, by id, made here when missing), whose bytes it reuses.
 */
export function reestimateWithModel(
  conversations: readonly RebuiltConversation[],
  builders: Map<string, BodyBuilder>,
): { readonly conversations: RebuiltConversation[]; readonly model?: TokenModel } {
  for (const c of conversations) if (!builders.has(c.id)) builders.set(c.id, new BodyBuilder());
  if (!conversations.some((c) => c.requests.some((r) => r.estimated === true))) return { conversations: [...conversations] };
  const model = fitSessionModel(conversations, builders);
  const reestimated = conversations.map((c) => {
    if (!c.requests.some((r) => r.estimated === true)) return c;
    const builder = builders.get(c.id) ?? new BodyBuilder();
    const prefix = model.prefixTokens.get(c.id) ?? 0;
    const requests = c.requests.map((r) => {
      if (r.estimated !== true) return r;
      const prompt = Math.round(prefix + model.tokensPerByte * builder.regionLength(r.model, r.messages));
      return { ...r, usage: { ...r.usage, cacheRead: Math.max(0, prompt - r.usage.input - r.usage.cacheWrite) } };
    });
    return { ...c, requests };
  });
  return { conversations: reestimated, model };
}
