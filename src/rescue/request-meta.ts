/** What the engine reads from a request's line and headers, before its body. */
import { COMPACTION_HEADER, dialectOf, readRequestClass, REQUEST_CLASS_HEADER, modelRouteOf, type ModelRoute, type RequestClass } from '../core/index.js';
import type { EngineSettings } from './engine-settings.js';
import type { EngineRequest } from './engine-types.js';

/** The request's route, window (by `--window`, the body's model, the beta header), client headers and body coding. */
export interface RequestMeta {
  readonly route: ModelRoute | undefined;
  readonly window: number;
  /** `x-claude-code-agent-id`: a subagent's conversations are its own. */
  readonly agentId: string | undefined;
  /**
   * The client's session header, part of the key: the dialect's `sessionHeader`
   * (`x-claude-code-session-id` on a Messages call, Codex's `session-id` on an OpenAI one).
   */
  readonly sessionId: string | undefined;
  /** `content-encoding` other than identity: the body cannot be read, so it passes through. */
  readonly encoding: string | undefined;
  /** Claude Code's `x-claude-code-request-class` (core/request-class.ts); absent when it names none. */
  readonly requestClass?: RequestClass;
}

/** The metadata but the window: what the engine reads before it knows the request's conversation. */
export type RequestHead = Omit<RequestMeta, 'window'>;

/** Reads the request's metadata. Never throws: a header of an unexpected type counts as absent. */
export function readRequestMeta(request: EngineRequest, settings: EngineSettings): RequestMeta {
  return withWindow(readRequestHead(request), request, settings);
}

/** The metadata but the window, which alone may scan the body. Never throws. */
export function readRequestHead(request: EngineRequest): RequestHead {
  const { headers } = request;
  const encoding = headerValue(headers['content-encoding']);
  const route = modelRouteOf(request.method, request.target);
  // A request that is no model call is read as the default dialect's (Messages): it only passes through.
  const api = dialectOf(route ?? 'messages');
  const requestClass = readRequestClass(headerValue(headers[REQUEST_CLASS_HEADER]), headerValue(headers[COMPACTION_HEADER]));
  return {
    route,
    agentId: headerValue(headers['x-claude-code-agent-id']),
    sessionId: headerValue(headers[api.sessionHeader]),
    encoding: encoding === undefined || encoding.toLowerCase() === 'identity' ? undefined : encoding,
    ...(requestClass === undefined ? {} : { requestClass }),
  };
}

/**
 * `head` with the request's window: `--window`, else the dialect's, from the body's `model` (read
 * here, unless `model` gives it read already: core/head-model-memo.ts) and the headers.
 */
export function withWindow(head: RequestHead, request: EngineRequest, settings: EngineSettings, model?: { readonly value: string | undefined }): RequestMeta {
  // The scan of the body for its model is done only when no `--window` decides.
  const { given, autoCompact } = settings.window;
  const window = given ?? dialectOf(head.route ?? 'messages').window(model === undefined ? request : { ...request, model }, { autoCompactWindow: autoCompact });
  return { ...head, window };
}

/** A header's first value; repeated headers arrive as an array. */
function headerValue(value: unknown): string | undefined {
  const first: unknown = Array.isArray(value) ? value[0] : value;
  return typeof first === 'string' ? first : undefined;
}
