import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { BodyPump } from '../../src/proxy/body-pump.js';

const servers: http.Server[] = [];
afterEach(() => {
  for (const s of servers.splice(0)) s.close();
});

/** A server that answers each request with its body, echoed. */
async function echoServer(): Promise<number> {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => res.end(Buffer.concat(chunks)));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

/** A client stream whose chunks the test releases one at a time. */
function controlledRest(): { rest: AsyncIterator<unknown>; push(chunk: string): void; end(): void } {
  const queue: Array<(r: IteratorResult<Buffer>) => void> = [];
  const ready: Array<IteratorResult<Buffer>> = [];
  const deliver = (r: IteratorResult<Buffer>): void => {
    const waiter = queue.shift();
    if (waiter === undefined) ready.push(r);
    else waiter(r);
  };
  return {
    rest: { next: () => new Promise((resolve) => (ready.length > 0 ? resolve(ready.shift()!) : queue.push(resolve))) },
    push: (chunk) => deliver({ done: false, value: Buffer.from(chunk) }),
    end: () => deliver({ done: true, value: undefined }),
  };
}

function post(port: number, length: number): { req: http.ClientRequest; answer: Promise<string> } {
  const req = http.request({ host: '127.0.0.1', port, method: 'POST', headers: { 'content-length': String(length) } });
  const answer = new Promise<string>((resolve, reject) => {
    req.on('response', (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => resolve(text));
    });
    req.on('error', reject);
  });
  return { req, answer };
}

describe('BodyPump', () => {
  it('should forward the head at once and the rest as it arrives', async () => {
    const port = await echoServer();
    const client = controlledRest();
    const pump = new BodyPump(Buffer.from('head-'), client.rest, 15);
    const { req, answer } = post(port, 15);

    pump.attach(req);
    client.push('middle-');
    client.push('end');
    client.end();

    expect(await answer).toBe('head-middle-end');
    expect(pump.received).toBe(15);
  });

  it('should replay everything kept to a new target after a retry, then carry on', async () => {
    const port = await echoServer();
    const client = controlledRest();
    const pump = new BodyPump(Buffer.from('aaa'), client.rest, 9);
    const first = post(port, 9);
    first.answer.catch(() => undefined);
    pump.attach(first.req);
    client.push('bbb');
    await new Promise((resolve) => setTimeout(resolve, 20));

    first.req.destroy(); // the stale socket: forward.ts retries on a fresh one
    const second = post(port, 9);
    pump.attach(second.req);
    client.push('ccc');
    client.end();

    expect(await second.answer).toBe('aaabbbccc');
  });
});
