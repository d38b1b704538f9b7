/**
 * A scripted upstream that prices its own prompt cache the way the provider does, roughly, with
 * the demo's model (src/demo/cache-pricing.ts): the part of a request that is byte-identical to
 * the previous request of the same conversation is a cache read, the rest is written to the cache. Every model call is
 * answered with one Read tool_use, so a scripted client keeps going.
 */
import { commonPrefixLength, priceRequest } from '../../src/scripted/cache-pricing.js';
import { assistantMessage, replyWith, startMessagesUpstream, toolUse, isMessagesRequest, type MessagesUpstream, type ReceivedRequest } from './messages-upstream.js';

export { commonPrefixLength };

export interface CacheModelUpstream extends MessagesUpstream {
  /** Usage reported per model call, in order. */
  readonly usages: Array<{ input: number; cacheRead: number; cacheCreation: number }>;
}

/** Starts the upstream; `conversationOf` tells conversations apart (default: one conversation). */
export async function startCacheModelUpstream(
  options: { conversationOf?: (req: ReceivedRequest) => string; onModelCall?: (req: ReceivedRequest) => void } = {},
): Promise<CacheModelUpstream> {
  const previous = new Map<string, Buffer>();
  const usages: CacheModelUpstream['usages'] = [];
  const upstream = await startMessagesUpstream((req) => {
    if (!isMessagesRequest(req)) return undefined;
    options.onModelCall?.(req);
    const conv = options.conversationOf?.(req) ?? 'main';
    const usage = priceRequest(previous.get(conv), req.body);
    previous.set(conv, req.body);
    usages.push({ input: usage.input_tokens, cacheRead: usage.cache_read_input_tokens, cacheCreation: usage.cache_creation_input_tokens });
    const message = assistantMessage({
      content: [toolUse('Read', { file_path: `/src/file-${req.index}.ts` })],
      usage: { ...usage, output_tokens: 20 },
    });
    return replyWith(req, message);
  });
  return Object.assign(upstream, { usages });
}
