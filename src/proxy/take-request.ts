/**
 * Takes a request's body and decides what goes upstream: the body as it arrives (a conversation
 * without epochs that cannot latch, the common case), or the whole body, prepared (rewritten
 * when its conversation has epochs). Failures become a pass-through with a reason.
 */
import type { IncomingMessage } from 'node:http';
import { findFirstMessage } from '../core/index.js';
import { BodyPump } from './body-pump.js';
import type { ModelRoute } from './model-route.js';
import { findConversation, prepareRequest, type PrepareContext, type PreparedRequest } from './prepare-request.js';
import { readBody } from './read-body.js';
import { readHead, readRest } from './read-head.js';

/** A head this long without a whole first message is read to its end instead. */
export const MAX_HEAD_BYTES = 1024 * 1024;

/** What goes upstream, and what the wire record says about it. */
export interface TakenRequest {
  /** `prepared.body` is what was decided on: the whole body, or (streamed) its head. */
  readonly prepared: PreparedRequest;
  readonly outgoing: Buffer | BodyPump;
  /** Bytes received from the client (final once the upload is complete). */
  readonly bytesIn: () => number;
  /** Bytes of the body sent upstream. */
  readonly bytesOut: () => number;
}

/** The request's meta data that the pipeline reads from headers. */
export interface RequestMeta {
  readonly agentId: string | undefined;
  readonly sessionId: string | undefined;
  readonly window: number;
}

/** Reads and prepares one request; `too_large` when its body is over the limit. */
export async function takeRequest(
  ctx: PrepareContext,
  req: IncomingMessage,
  route: ModelRoute | undefined,
  meta: RequestMeta,
): Promise<TakenRequest | 'too_large'> {
  const length = streamableLength(req, ctx.config.maxRequestBytes);
  let body: Buffer;
  if (route !== undefined && length !== undefined) {
    const taken = await readHead(req, MAX_HEAD_BYTES, (head) => findFirstMessage(head) !== undefined);
    if (!taken.complete) {
      const found = await findConversation(ctx, taken.head, route, meta).catch(() => undefined);
      if (found?.kind === 'untouched') {
        const pump = new BodyPump(taken.head, taken.rest, length);
        return { prepared: { body: taken.head, ...found.prepared }, outgoing: pump, bytesIn: () => pump.received, bytesOut: () => pump.received };
      }
    }
    body = taken.complete ? taken.body : await readRest(taken.head, taken.rest);
  } else {
    const read = await readBody(req, ctx.config.maxRequestBytes);
    if (read === 'too_large') return 'too_large';
    body = read;
  }
  const prepared = await prepare(ctx, req, body, route, meta);
  const outgoing = Buffer.from(prepared.body.buffer, prepared.body.byteOffset, prepared.body.byteLength);
  return { prepared, outgoing, bytesIn: () => body.length, bytesOut: () => outgoing.length };
}

async function prepare(ctx: PrepareContext, req: IncomingMessage, body: Buffer, route: ModelRoute | undefined, meta: RequestMeta): Promise<PreparedRequest> {
  const passthrough = (reason: PreparedRequest['reason'], detail: string): PreparedRequest => ({
    body, rescued: 0, epochs: 0, bytesElided: 0, ...(reason === undefined ? {} : { reason }), detail,
  });
  if (route === undefined) return passthrough('not_a_model_call', 'not a model call');
  const encoding = req.headers['content-encoding'];
  if (isEncoded(encoding)) return passthrough('encoded_body', String(encoding));
  try {
    return await prepareRequest(ctx, body, route, meta);
  } catch (error) {
    return passthrough('internal_error', error instanceof Error ? error.message : String(error));
  }
}

/**
 * The body's length when it may be forwarded as it arrives: a declared `content-length` within
 * the limit (so the upstream gets the same framing) and a plain, unencoded body.
 */
function streamableLength(req: IncomingMessage, max: number): number | undefined {
  if (isEncoded(req.headers['content-encoding']) || req.headers['transfer-encoding'] !== undefined) return undefined;
  const declared = Number(req.headers['content-length']);
  return Number.isSafeInteger(declared) && declared > 0 && declared <= max ? declared : undefined;
}

function isEncoded(encoding: string | string[] | undefined): boolean {
  const value = Array.isArray(encoding) ? encoding.join(',') : encoding;
  return value !== undefined && value.trim() !== '' && value.trim().toLowerCase() !== 'identity';
}
