/**
 * The scripted Anthropic Messages API, shared by `ctxshed demo` and the tests: a real `node:http`
 * server on 127.0.0.1 (any free port) that records every request byte for byte and answers
 *
 * - `POST /v1/messages`: over the window (the model's, from its own table, or
 *   `maxPromptTokens`), the API's 400 "prompt is too long: N tokens > M maximum", counted in
 *   `refusedForSize`; else the responder's reply, else a Read tool call; a model's message is priced
 *   with a prompt-cache model (cache-pricing.ts) for its usage, and sent as SSE when the body says
 *   `"stream": true`, as JSON otherwise (sse-encode.ts says which doc the stream follows);
 * - `POST /v1/messages/count_tokens`: `{"input_tokens": N}`;
 * - `HEAD /` and `GET /` (the client's connectivity probe): 200; anything else: the API's 404, or
 *   405 for another method on the two paths above;
 * - CONNECT: refused with 403 and recorded, so a client told to use it as HTTPS_PROXY reaches
 *   nothing else.
 *
 * Any reply may be scripted instead, faults included (reply.ts): statuses, error bodies, pauses,
 * compressed bodies, an `event: error` mid-stream, a connection cut or left hanging.
 *
 * Preserved thinking (on unless `preservedThinking: false`): a request to a model that runs the
 * prefix check (claude-fable-5-2, claude-mythos-5-2, claude-fable-5-1, claude-mythos-5-1,
 * claude-opus-5-5, claude-sonnet-5-5, claude-haiku-5-5) has every thinking block it sends back
 * checked before any responder runs (preserved-thinking/check-thinking.ts, written from the
 * Anthropic docs "Preserved thinking" and "Prefix checks on thinking blocks", independent of the
 * proxy's code): the documented 400 `messages.N.content.M: Invalid \`signature\` in \`thinking\`
 * block. The block is bound to a different conversation. ...`, or the failing blocks dropped under
 * `drop_block` (with the `thinking-binding-controls-2026-08-01` beta), or let through on an
 * `allow` account; a block the model cannot read is dropped silently. Under the beta header every
 * model answer carries `input_transformations` (top level in JSON, on `message_start`'s message
 * in SSE). Every model answer opens with a thinking block signed for its prefix (empty text unless
 * the request asks `thinking.display: "summarized"`), and thinking blocks a responder gives are
 * signed too. `thinkingChecks` keeps one record per checked request (count_tokens included).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { answerRequest } from './answer-request.js';
import { openApiState, recordRequest } from './api-state.js';
import type { MessagesApi, MessagesApiOptions } from './messages-api-types.js';
import { sendReply } from './send-reply.js';

export type { MessagesApi, MessagesApiOptions, Responder } from './messages-api-types.js';

/** Loopback only, like the proxy: a stand-in for the API is never reachable from elsewhere. */
const LOOPBACK = '127.0.0.1';
/** Starts the API on 127.0.0.1, any free port. */
export async function startMessagesApi(options: MessagesApiOptions = {}): Promise<MessagesApi> {
  const state = openApiState(options);
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    readBody(req)
      .then(async (body) => sendReply(res, await answerRequest(state, recordRequest(state, req, body))))
      // An aborted upload or a write after the client left: nothing sensible is left to say.
      .catch(() => res.destroy());
  });
  // A client told to use this server as HTTPS_PROXY must not reach anything else: no tunnels.
  server.on('connect', (req: IncomingMessage, socket: Duplex) => {
    recordRequest(state, req, Buffer.alloc(0));
    socket.on('error', () => undefined);
    socket.end('HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, LOOPBACK, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${LOOPBACK}:${port}`,
    port,
    requests: state.requests,
    usages: state.usages,
    thinkingChecks: state.thinkingChecks,
    refusedForSize: () => state.refusedForSize,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
