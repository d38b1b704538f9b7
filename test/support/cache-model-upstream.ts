/**
 * A scripted upstream that prices its own prompt cache the way the provider does, roughly: the
 * part of a request that is byte-identical to the previous request of the same conversation is a
 * cache read, the rest is written to the cache. Tokens are bytes / 4. Every model call is
 * answered with one Read tool_use, so a scripted client keeps going.
 */
import { assistantMessage, replyWith, startMessagesUpstream, toolUse, isMessagesRequest, type MessagesUpstream, type ReceivedRequest } from './messages-upstream.js';

export const BYTES_PER_TOKEN = 4;

/** Length of the common prefix of two byte strings. */
export function commonPrefixLength(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a[i] === b[i]) i++;
  return i;
}

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
    const prior = previous.get(conv);
    const shared = prior === undefined ? 0 : commonPrefixLength(prior, req.body);
    previous.set(conv, req.body);
    const cacheRead = Math.floor(shared / BYTES_PER_TOKEN);
    const cacheCreation = Math.floor((req.body.length - shared) / BYTES_PER_TOKEN);
    usages.push({ input: 3, cacheRead, cacheCreation });
    const message = assistantMessage({
      content: [toolUse('Read', { file_path: `/src/file-${req.index}.ts` })],
      usage: { input_tokens: 3, cache_read_input_tokens: cacheRead, cache_creation_input_tokens: cacheCreation, output_tokens: 20 },
    });
    return replyWith(req, message);
  });
  return Object.assign(upstream, { usages });
}
