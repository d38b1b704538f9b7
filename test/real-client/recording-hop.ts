/**
 * A pass-through HTTP hop on 127.0.0.1 that records every request byte-exact before forwarding it.
 * Put between the real client and ctxshed, it shows what the client sent in the same run, so the
 * bytes ctxshed forwards can be compared with the bytes it was given.
 *
 * A thin layer over the scripted Messages API: the API records each request and refuses CONNECT;
 * the hop's one answer, to every request, is to forward it.
 */
import { request, type IncomingHttpHeaders, type OutgoingHttpHeaders, type ServerResponse } from 'node:http';
import { startMessagesApi } from '../../src/scripted/messages-api.js';
import type { ReceivedRequest } from '../../src/scripted/received-request.js';

/** The header the hop adds so the upstream's copy of a request can be paired with the client's. */
export const SEQ_HEADER = 'x-ctxshed-test-seq';

/** Hop-by-hop headers (RFC 9110 §7.6.1): not forwarded. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'trailer', 'upgrade', 'content-length']);

export interface RecordingHop {
  url: string;
  /** Every request, `index` being the value of its SEQ_HEADER. */
  requests: ReceivedRequest[];
  close(): Promise<void>;
}

/**
 * Starts the hop; `target()` is asked at each request where to forward it (`http://127.0.0.1:N`),
 * so it can be learnt after the hop started. `firstSeq` numbers requests across several hops.
 */
export async function startRecordingHop(target: () => string, firstSeq: number): Promise<RecordingHop> {
  const api = await startMessagesApi({
    firstIndex: firstSeq,
    // A hop, not the API: it checks no thinking block (the API behind it does, or not).
    preservedThinking: false,
    respond: (req) => ({ kind: 'custom', write: (res) => forward(req, res, target()) }),
  });
  return { url: api.url, requests: api.requests, close: () => api.close() };
}

function forward(req: ReceivedRequest, res: ServerResponse, target: string): Promise<void> {
  return new Promise((resolve) => {
    res.once('close', resolve);
    // Host names the hop's target, as a forwarding hop writes it: ctxshed refuses a Host that
    // names another port than its own (src/proxy/client-guard.ts). The client's own is recorded.
    const { host: _client, ...sent } = forwardable(req.headers);
    const headers: OutgoingHttpHeaders = { ...sent, [SEQ_HEADER]: String(req.index), 'content-length': String(req.body.length) };
    const out = request(new URL(req.path, target), { method: req.method, headers }, (up) => {
      res.writeHead(up.statusCode ?? 502, forwardable(up.headers));
      up.pipe(res);
    });
    out.on('error', (error) => {
      res.writeHead(502, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ type: 'error', error: { type: 'api_error', message: `recording hop: ${error.message}` } }));
    });
    out.end(req.body);
  });
}

function forwardable(headers: IncomingHttpHeaders): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined && !HOP_BY_HOP.has(name)) out[name] = value;
  }
  return out;
}
