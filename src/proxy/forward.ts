/**
 * Sends one request to the upstream and streams its answer back to the client as it arrives,
 * teeing a copy into the usage tap, in named steps: open the upstream request (open-upstream.ts),
 * hold the response back or stream it (relay-response.ts), read the tap, finish
 * (upstream-exchange.ts). Everything that decides what to send lives elsewhere.
 */
import type { ExchangeFacts, ForwardArgs, ForwardResult, HeldResponse } from './forward-types.js';
import { openUpstream } from './open-upstream.js';
import type { Reply } from './reply.js';
import { relayResponse } from './relay-response.js';
import { UpstreamExchange } from './upstream-exchange.js';

export type { ForwardArgs, ForwardResult, HeldResponse, UsageMeta } from './forward-types.js';

/**
 * Forwards one request and relays the response: status line, headers minus hop-by-hop ones,
 * and the body chunk by chunk as it arrives (compressed bytes untouched; the client decodes).
 * Upstream HTTP errors are relayed like any response. A proxy-side failure before response
 * headers answers 502/504 in the API's error shape; after headers the status cannot change, so
 * the client connection is destroyed, which is how HTTP/1.1 tells a client the body is
 * incomplete (RFC 9112 §8). A client that hangs up aborts the upstream request. Never rejects.
 */
export async function forwardToUpstream(args: ForwardArgs): Promise<ForwardResult> {
  const now = args.now ?? (() => performance.now());
  const startedAt = now();
  const x = new UpstreamExchange(args, now, startedAt);
  x.start(() => openUpstream(x, (res) => relayResponse(x, res)));
  const facts = await x.settled;
  // The client already has the whole response: reading the copy delays nothing.
  const usage = facts.tap === undefined ? undefined : await facts.tap.end();
  const result = resultOf(facts, usage === undefined ? {} : { usage }, now() - startedAt);
  x.reportUsage(usage);
  return result;
}

function resultOf(facts: ExchangeFacts, usage: Pick<ForwardResult, 'usage'>, totalMs: number): ForwardResult {
  const tap = facts.tap;
  const streamError = tap?.streamError;
  const thinkingDropped = tap?.thinkingDropped;
  return {
    status: facts.status,
    bytesOut: facts.bytesOut,
    ...usage,
    ...(tap?.error === undefined ? {} : { tapError: tap.error }),
    ...(streamError === undefined ? {} : { streamError }),
    ...(thinkingDropped === undefined ? {} : { thinkingDropped }),
    ...(facts.error === undefined ? {} : { error: facts.error }),
    ...(facts.held === undefined ? {} : { held: facts.held }),
    timings: { ...(facts.headersMs === undefined ? {} : { headersMs: facts.headersMs }), totalMs },
  };
}

/**
 * Relays a held-back response to the client, byte for byte as `forwardToUpstream` would have:
 * status, reason phrase, headers and body. Returns the body bytes written (0 if the client left).
 */
export function sendHeldResponse(reply: Reply, held: HeldResponse): number {
  try {
    return reply.answerBytes(held.status, held.headers, held.body, held.statusMessage) ? held.body.length : 0;
  } catch {
    return 0;
  }
}
