/** What the scripted Messages API keeps across requests (messages-api.ts): every request, every priced usage, every thinking check. */
import type { IncomingMessage } from 'node:http';
import type { MessagesApiOptions } from './messages-api-types.js';
import type { Usage } from './message.js';
import { isCountTokensRequest, isMessagesRequest, parseRequestBody, type ReceivedRequest } from './received-request.js';
import type { CheckInput } from './preserved-thinking/check-thinking.js';
import { checkInputOf, recordCheck, type ThinkingCheckRecord } from './preserved-thinking/request-gate.js';

/** A thinking check and what it was run on, kept to sign the answer's thinking for the same prefix. */
export interface CheckedRequest {
  readonly input: CheckInput;
  readonly record: ThinkingCheckRecord;
}

/** The running API's state. */
export interface ApiState {
  readonly options: MessagesApiOptions;
  readonly requests: ReceivedRequest[];
  readonly usages: Usage[];
  /** The last body of each conversation, for the prompt-cache model. */
  readonly previousBody: Map<string, Buffer>;
  readonly thinkingChecks: ThinkingCheckRecord[];
  /** The thinking check of each request by its index. */
  readonly checked: Map<number, CheckedRequest>;
  /** The next request's index. */
  next: number;
  /** Model calls refused as over the window. */
  refusedForSize: number;
}

/** A fresh state for `options`. */
export function openApiState(options: MessagesApiOptions): ApiState {
  return {
    options,
    requests: [],
    usages: [],
    previousBody: new Map(),
    thinkingChecks: [],
    checked: new Map(),
    next: options.firstIndex ?? 0,
    refusedForSize: 0,
  };
}

/** Records a request whose body has arrived, numbered in arrival order, and tells `onRequest`. */
export function recordRequest(state: ApiState, req: IncomingMessage, body: Buffer): ReceivedRequest {
  const received: ReceivedRequest = {
    method: req.method ?? 'GET',
    path: req.url ?? '/',
    headers: req.headers,
    rawHeaders: req.rawHeaders,
    body,
    index: state.next++,
  };
  state.requests.push(received);
  state.options.onRequest?.(received);
  return received;
}

/** The preserved-thinking check of a model call or token count, recorded; `undefined` when none applies. */
export function checkThinkingOf(state: ApiState, req: ReceivedRequest): ThinkingCheckRecord | undefined {
  const { options } = state;
  if (options.preservedThinking === false) return undefined;
  const endpoint = isMessagesRequest(req) ? 'messages' : isCountTokensRequest(req) ? 'count_tokens' : undefined;
  const input = endpoint === undefined ? undefined : checkInputOf(parseRequestBody(req), req.headers, options.preservedThinking ?? {});
  if (input === undefined || endpoint === undefined) return undefined;
  const record = recordCheck(req.index, endpoint, input);
  state.thinkingChecks.push(record);
  state.checked.set(req.index, { input, record });
  return record;
}
