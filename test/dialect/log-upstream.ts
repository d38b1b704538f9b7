/**
 * A scripted log API (log-dialect.ts) on 127.0.0.1: `POST /v1/log` answers with one assistant turn
 * and the body's size as its context (4 bytes a token), as JSON or, when the body says
 * `"stream": true`, as SSE (`log.turn`, then `log.done` with the usage). It refuses what the API
 * would: a body over its window gets a 400 `too long: N`, the dialect's refusal. A request whose
 * body holds `"fail"` as a turn's text has its socket destroyed before any answer. Each request's
 * body is kept, with what `onRequest` said of it on arrival.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export const BYTES_PER_TOKEN = 4;

/** One request as the upstream got it. */
export interface LogRequest {
  readonly path: string;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: Buffer;
  /** What `onRequest` said on arrival (before any answer). */
  readonly note: unknown;
}

export interface LogUpstream {
  readonly url: string;
  readonly requests: LogRequest[];
  close(): Promise<void>;
}

/** The tokens the log API counts for a body. */
export const tokensOf = (body: Buffer): number => Math.ceil(body.length / BYTES_PER_TOKEN);

/** Starts it; `windowTokens` is where it refuses, `onRequest` runs on each body as it arrives. */
export async function startLogUpstream(windowTokens: number, onRequest: (body: Buffer) => unknown = () => undefined): Promise<LogUpstream> {
  const requests: LogRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      requests.push({ path: req.url ?? '', headers: req.headers, body, note: onRequest(body) });
      answer(body, windowTokens, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

function answer(body: Buffer, windowTokens: number, res: http.ServerResponse): void {
  const parsed = JSON.parse(body.toString('utf8')) as { stream?: boolean; turns?: Array<{ text?: unknown }> };
  if (parsed.turns?.some((t) => t.text === 'fail') === true) {
    res.socket?.destroy();
    return;
  }
  const tokens = tokensOf(body);
  if (tokens > windowTokens) {
    res.writeHead(400, { 'content-type': 'text/plain' }).end(`too long: ${tokens}`);
    return;
  }
  const turn = { role: 'assistant', text: `read ${parsed.turns?.length ?? 0} turns` };
  const usage = { context_tokens: tokens };
  if (parsed.stream !== true) {
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ turn, usage }));
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  res.write(`event: log.turn\ndata: ${JSON.stringify(turn)}\n\n`);
  res.end(`event: log.done\ndata: ${JSON.stringify({ usage })}\n\n`);
}
