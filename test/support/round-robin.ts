/**
 * A tiny HTTP balancer for the replica tests: each request goes to the next target in turn (or
 * the one `pick` names), and to the next live one when its target refuses the connection or dies
 * before answering, as a balancer with retries on connection errors does. Bodies are buffered.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Balancer {
  readonly url: string;
  /** Which target answered each request, in order. */
  readonly answeredBy: number[];
  close(): Promise<void>;
}

/**
 * Starts the balancer on 127.0.0.1; `pick(n, headers)` chooses the first target of request n
 * (round-robin by default; a sticky balancer picks by a header).
 */
export async function startRoundRobin(
  targets: readonly string[],
  pick: (n: number, headers: http.IncomingHttpHeaders) => number = (n) => n % targets.length,
): Promise<Balancer> {
  const answeredBy: number[] = [];
  let n = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const first = pick(n++, req.headers);
      const attempt = (tries: number): void => {
        const i = (first + tries) % targets.length;
        const out = http.request(`${targets[i]}${req.url ?? '/'}`, { method: req.method, headers: req.headers, agent: false }, (answer) => {
          answeredBy.push(i);
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        });
        out.on('error', () => {
          if (tries + 1 < targets.length) attempt(tries + 1);
          else res.writeHead(502).end('no replica answered');
        });
        out.end(body);
      };
      attempt(0);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    answeredBy,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
