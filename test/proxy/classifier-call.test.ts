import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createUpstreamAgents } from '../../src/proxy/agents.js';
import { CLASSIFIER_MAX_RESPONSE_BYTES, createClassifierCall } from '../../src/proxy/classifier-call.js';

interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

/** A one-route upstream on 127.0.0.1:0 that records each request and answers with `reply`. */
async function upstream(reply: (res: http.ServerResponse) => void): Promise<{ url: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      reply(res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(
    () => new Promise<void>((resolve) => server.close(() => resolve())),
    () => server.closeAllConnections(),
  );
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

function agents() {
  const a = createUpstreamAgents();
  cleanups.push(() => (a.http.destroy(), a.https.destroy()));
  return a;
}

describe('createClassifierCall', () => {
  it("should POST the body to the upstream's /v1/messages with the given headers, and read the answer whole", async () => {
    // Arrange
    const { url, seen } = await upstream((res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"content":[]}'));
    const call = createClassifierCall(new URL(`${url}/base/`), agents());

    // Act
    const answer = await call({ body: '{"model":"m"}', headers: { 'x-api-key': 'k', 'anthropic-beta': 'b1' } }, new AbortController().signal);

    // Assert
    expect(answer).toEqual({ status: 200, body: '{"content":[]}' });
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ method: 'POST', url: '/base/v1/messages', body: '{"model":"m"}' });
    expect(seen[0]!.headers).toMatchObject({
      'x-api-key': 'k',
      'anthropic-beta': 'b1',
      'anthropic-version': '2023-06-01',
      'content-type': 'application/json',
      'accept-encoding': 'identity',
      'content-length': '13',
    });
  });

  it('should give back an error status and its body as they came', async () => {
    const { url } = await upstream((res) => res.writeHead(529).end('{"type":"error"}'));

    const answer = await createClassifierCall(new URL(url), agents())({ body: '{}', headers: {} }, new AbortController().signal);

    expect(answer).toEqual({ status: 529, body: '{"type":"error"}' });
  });

  it('should resolve to undefined when aborted, when nothing listens, and for an answer too large to be one', async () => {
    // Arrange
    const hanging = await upstream(() => undefined);
    const huge = await upstream((res) => res.writeHead(200).end('x'.repeat(CLASSIFIER_MAX_RESPONSE_BYTES + 1)));
    const controller = new AbortController();

    // Act
    const pending = createClassifierCall(new URL(hanging.url), agents())({ body: '{}', headers: {} }, controller.signal);
    controller.abort();
    const aborted = await pending;
    const refused = await createClassifierCall(new URL('http://127.0.0.1:1'), agents())({ body: '{}', headers: {} }, new AbortController().signal);
    const tooLarge = await createClassifierCall(new URL(huge.url), agents())({ body: '{}', headers: {} }, new AbortController().signal);

    // Assert
    expect([aborted, refused, tooLarge]).toEqual([undefined, undefined, undefined]);
  });
});
