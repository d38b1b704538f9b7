/** The options and the handle of the scripted Messages API (messages-api.ts). */
import type { ReceivedRequest } from './received-request.js';
import type { ScriptedReply } from './reply.js';
import type { Usage } from './message.js';
import type { PreservedThinkingOptions, ThinkingCheckRecord } from './preserved-thinking/request-gate.js';

/**
 * Answers one request (any method, any path). `undefined` declines and the API answers as messages-api.ts says;
 * a responder that throws gets the request a 500 `api_error`.
 */
export type Responder = (req: ReceivedRequest) => ScriptedReply | undefined | Promise<ScriptedReply | undefined>;

/** How to start the API; every option has a default. */
export interface MessagesApiOptions {
  readonly respond?: Responder;
  /** Tells conversations apart for the prompt-cache model. Default: all one conversation. */
  readonly conversationOf?: (req: ReceivedRequest) => string;
  /**
   * The context window in scripted tokens: a model call whose prompt counts more gets the API's
   * 400 `invalid_request_error` "prompt is too long: N tokens > M maximum", before any responder.
   * Default: the window of the request's model and betas, from the scripted API's own table
   * (model-window.ts, apart from the proxy's), as the real API refuses; `false` answers whatever the size (only for
   * a test of the scripted API itself).
   */
  readonly maxPromptTokens?: number | false;
  /** The first request's `index` (to number requests across several servers). Default 0. */
  readonly firstIndex?: number;
  /** Called with each request once its body has arrived, before it is answered. */
  readonly onRequest?: (req: ReceivedRequest) => void;
  /** Preserved thinking on the models that run the prefix check (messages-api.ts). Default `{ mismatch: 'error' }`; `false` turns it off. */
  readonly preservedThinking?: PreservedThinkingOptions | false;
}

/** A running scripted API. */
export interface MessagesApi {
  /** `http://127.0.0.1:<port>`, no trailing slash: what ANTHROPIC_BASE_URL wants. */
  readonly url: string;
  readonly port: number;
  /** Every request in arrival order. */
  readonly requests: ReceivedRequest[];
  /** The usage of each message the API priced, in order. */
  readonly usages: Usage[];
  /** One record per request whose thinking blocks were checked, in order: assert `refused` on these. */
  readonly thinkingChecks: ThinkingCheckRecord[];
  /** Model calls refused as over the window so far ("prompt is too long"): a suite asserts 0. */
  readonly refusedForSize: () => number;
  /** Stops listening and cuts every connection (a keep-alive one would hold close() open). */
  close(): Promise<void>;
}
