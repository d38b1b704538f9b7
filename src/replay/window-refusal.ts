/**
 * The API's refusal of a prompt over the window, simulated: a replayed request whose prompt
 * (in the replay's fitted tokens) exceeds the window is refused, not answered. ctxshed's two
 * strategies then do what the proxy does (overflow-retry.ts): the engine latches at once
 * (trigger `overflow`, core/overflow-decision.ts) and the
 * request goes out once more; a retry still over the window is refused too.
 */
import type { OverflowDeclined, Prepared } from '../rescue/index.js';
import type { RescueReplay } from './rescue-replay.js';

/** Why a request was refused in the end. */
export type RefusedWhy =
  /** The strategy has no rescue (the client alone, per-request rewriting, server-side clearing). */
  | 'no_rescue'
  /** The engine declined to rescue it (engine-types.ts). */
  | OverflowDeclined
  /** The rescue's retry was still over the window. */
  | 'retry_too_long';

/** What the API did with one replayed request. */
export type WindowOutcome =
  | { readonly kind: 'answered'; readonly prepared: Prepared; readonly tokens: number; readonly rescued: boolean }
  | { readonly kind: 'refused'; readonly prepared: Prepared; readonly tokens: number; readonly why: RefusedWhy };

/** One request for the engine, and how to count the tokens of a body sent for it. */
export interface WindowRequest {
  readonly body: Uint8Array;
  readonly timeMs: number;
  readonly agentId: string | undefined;
  readonly window: number;
  /** The prompt tokens the API would count for `sent` (the replay's model). */
  readonly tokensOf: (sent: Uint8Array) => number;
}

/** Sends through the engine; on a prompt over the window, rescues as the proxy does, once. */
export async function sendWithinWindow(replay: RescueReplay, request: WindowRequest): Promise<WindowOutcome> {
  const prepared = await replay.send(request.body, request.timeMs, request.agentId);
  const tokens = request.tokensOf(prepared.body);
  if (tokens <= request.window) return { kind: 'answered', prepared, tokens, rescued: false };
  // The API's message names the maximum ("prompt is too long: N tokens > W maximum").
  const outcome = await replay.retryAfterOverflow(request.body, prepared, request.agentId, { tokens: Math.round(tokens), limit: request.window });
  if (outcome.kind === 'declined') return { kind: 'refused', prepared, tokens, why: outcome.why };
  const retryTokens = request.tokensOf(outcome.prepared.body);
  if (retryTokens > request.window) return { kind: 'refused', prepared: outcome.prepared, tokens: retryTokens, why: 'retry_too_long' };
  return { kind: 'answered', prepared: outcome.prepared, tokens: retryTokens, rescued: true };
}

/** The same for a strategy without a rescue: over the window is refused. */
export function refusedOverWindow(tokens: number, window: number): boolean {
  return tokens > window;
}
