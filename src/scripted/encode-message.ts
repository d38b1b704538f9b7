/** A scripted model message made into what the API sends (messages-api.ts): priced, its thinking signed, as SSE or JSON. */
import { requestIdOf } from './api-error.js';
import type { ApiState } from './api-state.js';
import { BYTES_PER_TOKEN, priceRequest } from './cache-pricing.js';
import { isRecord } from '../errors.js';
import { assistantMessage } from './message.js';
import { parseRequestBody, type ReceivedRequest } from './received-request.js';
import type { MessageReply, WireReply } from './reply.js';
import { messageEvents } from './sse-encode.js';
import { BINDING_BETA } from './preserved-thinking/check-thinking.js';
import { betasOf, thinkingTextOf } from './preserved-thinking/request-gate.js';
import { signReplyContent } from './preserved-thinking/sign-thinking.js';

/** The message with its priced usage, as SSE or JSON as the request asked. */
export function encodeMessage(state: ApiState, req: ReceivedRequest, reply: MessageReply): WireReply {
  const conversation = state.options.conversationOf?.(req) ?? 'main';
  const priced = priceRequest(state.previousBody.get(conversation), req.body);
  state.previousBody.set(conversation, req.body);
  const body = parseRequestBody(req);
  // The API answers as the model the request named.
  const requested = isRecord(body) && typeof body['model'] === 'string' ? body['model'] : undefined;
  const model = reply.model ?? requested;
  const bound = state.checked.get(req.index);
  const outcome = bound?.record.check.outcome;
  const content =
    bound === undefined || outcome?.kind !== 'answer'
      ? reply.content
      : signReplyContent(model ?? bound.input.model, bound.input, reply.content, outcome.seen, thinkingTextOf(body, req.index));
  const outputTokens = reply.outputTokens ?? Math.ceil(Buffer.byteLength(JSON.stringify(content)) / BYTES_PER_TOKEN);
  const plain = assistantMessage({
    content,
    usage: { ...priced, output_tokens: outputTokens, ...reply.usage },
    ...(model === undefined ? {} : { model }),
    ...(reply.stopReason === undefined ? {} : { stopReason: reply.stopReason }),
    ...(reply.id === undefined ? {} : { id: reply.id }),
  });
  // The documented field exists only under the beta header.
  const message =
    outcome?.kind === 'answer' && betasOf(req.headers).includes(BINDING_BETA) ? { ...plain, input_transformations: outcome.transformations } : plain;
  state.usages.push(message.usage);
  // The reply's head and faults carry over to the wire; its message fields are in `message`.
  const { kind: _kind, content: _content, stopReason: _stop, usage: _usage, outputTokens: _out, model: _model, id: _id, ...wire } = reply;
  const headers = Array.isArray(reply.headers) ? reply.headers : { 'request-id': requestIdOf(req.index), ...reply.headers };
  if (isRecord(body) && body['stream'] === true) return { ...wire, kind: 'sse', headers, events: messageEvents(message) };
  const { delayMs: _delay, errorAfter: _error, end: _end, ...json } = wire;
  return { ...json, kind: 'json', headers, body: message };
}
