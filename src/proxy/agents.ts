/** The keep-alive connection pools the proxy uses towards the upstream. */
import http from 'node:http';
import https from 'node:https';

/** Concurrent upstream connections per origin: the main thread, parallel subagents, side calls. */
export const DEFAULT_MAX_SOCKETS = 32;
/** Idle connections kept open per origin. */
export const DEFAULT_MAX_FREE_SOCKETS = 8;
/** An idle pooled connection is closed after this long, before servers tend to drop it. */
export const DEFAULT_FREE_SOCKET_TIMEOUT_MS = 30_000;

/** One agent per upstream scheme. */
export interface UpstreamAgents {
  readonly http: http.Agent;
  readonly https: https.Agent;
}

/** Options of `createUpstreamAgents`. */
export interface UpstreamAgentOptions {
  readonly maxSockets?: number;
  readonly freeSocketTimeoutMs?: number;
}

/**
 * Keep-alive agents for upstream requests; the caller owns them and calls `destroy()` on
 * shutdown. `lifo` reuses the most recently used socket, the one least likely to have been
 * closed by the server's idle timeout (Node's `http.Agent` docs). `timeout` applies to pooled
 * idle sockets only: Node's agent destroys a socket on timeout only while it is free.
 */
export function createUpstreamAgents(opts: UpstreamAgentOptions = {}): UpstreamAgents {
  const options = {
    keepAlive: true,
    maxSockets: opts.maxSockets ?? DEFAULT_MAX_SOCKETS,
    maxFreeSockets: DEFAULT_MAX_FREE_SOCKETS,
    scheduling: 'lifo' as const,
    timeout: opts.freeSocketTimeoutMs ?? DEFAULT_FREE_SOCKET_TIMEOUT_MS,
  };
  return { http: new http.Agent(options), https: new https.Agent(options) };
}
