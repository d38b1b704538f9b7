/** The scripted API's answer to one request (messages-api.ts): the checks the API runs first, then the responder's reply or its own. */
import { errorReply, promptTooLongReply, requestIdOf } from './api-error.js';
import { checkThinkingOf, type ApiState } from './api-state.js';
import { countTokens } from './cache-pricing.js';
import { encodeMessage } from './encode-message.js';
import { errorText } from '../errors.js';
import { apiId } from './message.js';
import {
  COUNT_TOKENS_PATH,
  isCountTokensRequest,
  isMessagesRequest,
  MESSAGES_PATH,
  parseRequestBody,
  pathnameOf,
  type ReceivedRequest,
} from './received-request.js';
import { scriptedModelWindow } from './model-window.js';
import { shapeRefusal } from './request-shape.js';
import type { ScriptedReply, WireReply } from './reply.js';

/** Output tokens of the API's own Read call. */
const DEFAULT_OUTPUT_TOKENS = 20;

/** Answers one recorded request. */
export async function answerRequest(state: ApiState, req: ReceivedRequest): Promise<WireReply> {
  const { options } = state;
  // The API refuses a bound block before anything else runs, token counts included.
  const thinking = checkThinkingOf(state, req);
  if (thinking?.message !== undefined) return errorReply(400, 'invalid_request_error', thinking.message, requestIdOf(req.index));
  // A tool_use input that is not an object, an empty text block: refused as the API refuses them.
  const shape = isMessagesRequest(req) || isCountTokensRequest(req) ? shapeRefusal(parseRequestBody(req)) : undefined;
  if (shape !== undefined) return errorReply(400, 'invalid_request_error', shape, requestIdOf(req.index));
  const limit = isMessagesRequest(req) ? promptLimitOf(options.maxPromptTokens, req) : undefined;
  if (limit !== undefined) {
    const tokens = countTokens(req.body);
    // The API refuses before the model sees anything: nothing is cached, nothing generated.
    if (tokens > limit) {
      state.refusedForSize++;
      return promptTooLongReply(tokens, limit, requestIdOf(req.index));
    }
  }
  let reply: ScriptedReply | undefined;
  try {
    reply = await options.respond?.(req);
  } catch (error) {
    reply = errorReply(500, 'api_error', `the scripted responder threw: ${errorText(error)}`, requestIdOf(req.index));
  }
  reply ??= defaultReply(req);
  return reply.kind === 'message' ? encodeMessage(state, req, reply) : reply;
}

/** The most tokens a model call may carry: the option, else the window of its model and betas; none when off. */
function promptLimitOf(option: number | false | undefined, req: ReceivedRequest): number | undefined {
  if (option === false) return undefined;
  if (option !== undefined) return option;
  const body = parseRequestBody(req);
  const model = typeof body === 'object' && body !== null && 'model' in body && typeof body.model === 'string' ? body.model : undefined;
  return scriptedModelWindow(model, req.headers['anthropic-beta']);
}

/** What the API answers when no responder does. */
function defaultReply(req: ReceivedRequest): ScriptedReply {
  if (isMessagesRequest(req)) {
    return {
      kind: 'message',
      content: [{ type: 'tool_use', id: apiId('toolu', req.index), name: 'Read', input: { file_path: `/src/file-${req.index}.ts` } }],
      outputTokens: DEFAULT_OUTPUT_TOKENS,
    };
  }
  if (isCountTokensRequest(req)) return { kind: 'json', headers: { 'request-id': requestIdOf(req.index) }, body: { input_tokens: countTokens(req.body) } };
  const pathname = pathnameOf(req);
  if (pathname === '/' && (req.method === 'HEAD' || req.method === 'GET')) {
    return { kind: 'raw', status: 200, headers: { 'content-type': 'text/plain' }, chunks: req.method === 'HEAD' ? [] : ['ok\n'] };
  }
  if (pathname === MESSAGES_PATH || pathname === COUNT_TOKENS_PATH) {
    return {
      ...errorReply(405, 'invalid_request_error', `${req.method} is not allowed on ${pathname}`, requestIdOf(req.index)),
      headers: { allow: 'POST', 'request-id': requestIdOf(req.index) },
    };
  }
  return errorReply(404, 'not_found_error', `${req.method} ${pathname} is not part of the scripted API`, requestIdOf(req.index));
}
