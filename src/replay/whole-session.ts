/**
 * The prompt of a stitched request (stitch-transcript.ts), re-estimated: the client reported the
 * usage of its compacted prompt, so the stitched prompt's tokens come from its bytes, by the
 * session's own fit (fit-session-model.ts, which leaves estimated requests out). Input and output
 * tokens and the cache writes stay as recorded (the TTL is read from them); the cache read takes
 * the rest. Pure.
 */
import { fitSessionModel } from './fit-session-model.js';
import type { RebuiltConversation } from './rebuild-conversations.js';
import { BodyBuilder, cacheRegionLength } from './request-body.js';

/** The conversations with every estimated request's prompt re-estimated from its bytes. */
export function reestimateUsage(conversations: readonly RebuiltConversation[]): RebuiltConversation[] {
  if (!conversations.some((c) => c.requests.some((r) => r.estimated === true))) return [...conversations];
  const builders = new Map(conversations.map((c) => [c.id, new BodyBuilder()]));
  const model = fitSessionModel(conversations, builders);
  return conversations.map((c) => {
    if (!c.requests.some((r) => r.estimated === true)) return c;
    const builder = builders.get(c.id) ?? new BodyBuilder();
    const prefix = model.prefixTokens.get(c.id) ?? 0;
    const requests = c.requests.map((r) => {
      if (r.estimated !== true) return r;
      const prompt = Math.round(prefix + model.tokensPerByte * cacheRegionLength(builder.build(r.model, r.messages)));
      return { ...r, usage: { ...r.usage, cacheRead: Math.max(0, prompt - r.usage.input - r.usage.cacheWrite) } };
    });
    return { ...c, requests };
  });
}
