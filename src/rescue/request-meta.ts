/** What the engine reads from a request's line and headers, before its body. */
import {
  CODEX_SESSION_HEADER,
  codexReleaseOf,
  COMPACTION_HEADER,
  DEFAULT_CONTEXT_WINDOW,
  effectiveCompactWindow,
  modelRouteOf,
  openAiModelWindow,
  readHeadModel,
  readRequestClass,
  REQUEST_CLASS_HEADER,
  type ModelRoute,
  type RequestClass,
} from '../core/index.js';
import { contextWindowFor } from './context-window.js';
import type { EngineSettings } from './engine-settings.js';
import type { EngineRequest } from './engine-types.js';

/** The request's route, window (by `--window`, the body's model, the beta header), client headers and body coding. */
export interface RequestMeta {
  readonly route: ModelRoute | undefined;
  readonly window: number;
  /** `x-claude-code-agent-id`: a subagent's conversations are its own. */
  readonly agentId: string | undefined;
  /**
   * The client's session header, part of the key: `x-claude-code-session-id` on a Messages call
   * (core/conversation-key.ts says why), Codex's `session-id` on an OpenAI one
   * (core/openai/conversation-key.ts).
   */
  readonly sessionId: string | undefined;
  /** `content-encoding` other than identity: the body cannot be read, so it passes through. */
  readonly encoding: string | undefined;
  /** Claude Code's `x-claude-code-request-class` (core/request-class.ts); absent when it names none. */
  readonly requestClass?: RequestClass;
}

/** Reads the request's metadata. Never throws: a header of an unexpected type counts as absent. */
export function readRequestMeta(request: EngineRequest, settings: EngineSettings): RequestMeta {
  const { headers } = request;
  const encoding = headerValue(headers['content-encoding']);
  const route = modelRouteOf(request.method, request.target);
  const openAi = route === 'responses' || route === 'chat';
  const requestClass = readRequestClass(headerValue(headers[REQUEST_CLASS_HEADER]), headerValue(headers[COMPACTION_HEADER]));
  return {
    route,
    window: settings.window ?? windowOf(request, settings, openAi),
    agentId: headerValue(headers['x-claude-code-agent-id']),
    sessionId: headerValue(headers[openAi ? CODEX_SESSION_HEADER : 'x-claude-code-session-id']),
    encoding: encoding === undefined || encoding.toLowerCase() === 'identity' ? undefined : encoding,
    ...(requestClass === undefined ? {} : { requestClass }),
  };
}

/**
 * The window without `--window`: the model's (a scan of the body's head), or the beta header's;
 * for a Messages call, no more than `CLAUDE_CODE_AUTO_COMPACT_WINDOW`, where Claude Code compacts.
 * The scan costs a read of the body's head, done only when no `--window` decides.
 */
function windowOf(request: EngineRequest, settings: EngineSettings, openAi: boolean): number {
  const model = readHeadModel(request.body);
  // An OpenAI model's window is the sending Codex release's (core/openai/model-windows.ts); one it does not list, 200,000.
  if (openAi) {
    const release = codexReleaseOf(headerValue(request.headers['user-agent']));
    return (model === undefined ? undefined : openAiModelWindow(model, release)) ?? DEFAULT_CONTEXT_WINDOW;
  }
  const beta = request.headers['anthropic-beta'];
  const betas = typeof beta === 'string' ? beta : Array.isArray(beta) ? beta.filter(isString) : undefined;
  return effectiveCompactWindow(contextWindowFor(undefined, betas, model), settings.autoCompactWindow);
}

/** A header's first value; repeated headers arrive as an array. */
function headerValue(value: unknown): string | undefined {
  const first: unknown = Array.isArray(value) ? value[0] : value;
  return typeof first === 'string' ? first : undefined;
}

function isString(value: unknown): value is string {
  return typeof value === 'string';
}
