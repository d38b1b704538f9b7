/** The engine's answers (`Prepared`) as every step builds them: a body to send, or a pass-through with its reason. */
import type { PassthroughReason, SkippedThinking } from '../core/index.js';
import type { Prepared } from './engine-types.js';
import type { RequestMeta } from './request-meta.js';

/** The body to send, with the request's facts and nothing done yet. */
export function preparedOf(body: Uint8Array, meta: RequestMeta): Prepared {
  return {
    body,
    route: meta.route,
    window: meta.window,
    agentId: meta.agentId,
    rescued: 0,
    bytesElided: 0,
    epochs: 0,
    ...(meta.requestClass === undefined ? {} : { requestClass: meta.requestClass }),
  };
}

/** The input bytes unchanged, with a reason from the closed list (core/passthrough-reasons.ts). */
export function passthroughOf(body: Uint8Array, meta: RequestMeta, reason: PassthroughReason, detail: string, extra: Partial<Prepared> = {}): Prepared {
  return { ...preparedOf(body, meta), reason, detail, ...extra };
}

/** Only a request that removed or kept a frozen thinking block says so: other records stay as they were. */
export function thinkingFacts(outcome: { readonly thinkingRemoved: number; readonly thinkingSkipped: readonly SkippedThinking[] }): Partial<Prepared> {
  return {
    ...(outcome.thinkingRemoved === 0 ? {} : { thinkingRemoved: outcome.thinkingRemoved }),
    ...(outcome.thinkingSkipped.length === 0 ? {} : { thinkingSkipped: outcome.thinkingSkipped }),
  };
}
