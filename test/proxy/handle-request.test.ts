/**
 * The proxy's per-request logic called as a function, with no client socket: each case hands
 * `handleProxyRequest` an EdgeRequest, reads the EdgeResponse, and checks the wire record. The
 * upstream is the scripted Messages API on 127.0.0.1 (src/scripted/), reached through the real
 * agents, as in production.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { IncomingHttpHeaders } from 'node:http';
import { Readable } from 'node:stream';
import { PromMetrics } from '../../src/metrics/prom-metrics.js';
import { createUpstreamAgents } from '../../src/proxy/agents.js';
import type { EdgeRequest, EdgeResponse } from '../../src/proxy/edge.js';
import { BodyBudget } from '../../src/proxy/body-budget.js';
import { handleProxyRequest, type ProxyDeps } from '../../src/proxy/handle-request.js';
import { StateHealth } from '../../src/proxy/state-health.js';
import { EpochEngine } from '../../src/rescue/index.js';
import { ScriptedClient } from '../../src/scripted/client.js';
import { startMessagesApi, type MessagesApi, type MessagesApiOptions } from '../../src/scripted/messages-api.js';
import { isMessagesRequest } from '../../src/scripted/received-request.js';
import { openStateDir } from '../../src/state/open-state-dir.js';
import { tempStateDir, testConfig } from '../support/test-proxy.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

/** The port the request "came in on": the Host header names it, as a real client's does. */
const PORT = 4711;
const MODEL_HEADERS = { host: `127.0.0.1:${PORT}`, 'content-type': 'application/json', 'x-api-key': 'sk-ant-test-000', 'anthropic-version': '2023-06-01' };

interface Edge {
  readonly deps: ProxyDeps;
  readonly api: MessagesApi;
  /** Every wire record the handler appended, in order. */
  readonly records: Array<Record<string, unknown>>;
}

/** The handler's dependencies, real and small: an engine over a fresh state directory, the scripted API upstream. */
async function setUp(api: MessagesApiOptions = {}, overrides: Parameters<typeof testConfig>[1] = {}, upstream?: string): Promise<Edge> {
  const scripted = await startMessagesApi(api);
  cleanups.push(() => scripted.close());
  const settings = testConfig(upstream ?? scripted.url, overrides);
  const now = (): Date => new Date('2026-01-01T00:00:00Z');
  const metrics = new PromMetrics();
  const engine = new EpochEngine(await openStateDir(await tempStateDir()), settings.engine, { now, metrics });
  const agents = createUpstreamAgents();
  cleanups.push(() => {
    engine.close();
    agents.http.destroy();
  });
  const records: Array<Record<string, unknown>> = [];
  const wire = { append: async (record: object): Promise<void> => void records.push(record as Record<string, unknown>) };
  const health = new StateHealth(wire.append, () => now().toISOString());
  return { deps: { transport: settings.transport, engine, wire, health, agents, now, metrics }, api: scripted, records };
}

function request(body: Buffer | AsyncIterable<Uint8Array>, over: Partial<EdgeRequest> & { headers?: IncomingHttpHeaders } = {}): EdgeRequest {
  return { method: 'POST', url: '/v1/messages?beta=true', headers: MODEL_HEADERS, localPort: PORT, remoteAddress: '127.0.0.1', body, ...over };
}

/** The response's body, read to its end, and the request once done (its wire record written). */
async function settle(response: EdgeResponse): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of response.body) chunks.push(chunk);
  await response.finished;
  return Buffer.concat(chunks);
}

/** A conversation of `turns` Read calls whose results are `bytes` each: about bytes/4 tokens a turn. */
function conversation(turns: number, bytes: number): Buffer {
  const c = new ScriptedClient('http://127.0.0.1:9');
  for (let i = 0; i < turns; i++) {
    const id = `toolu_${String(i).padStart(4, '0')}`;
    const text = Array.from({ length: Math.ceil(bytes / 40) }, (_, j) => `line ${j} of file ${i}: some code here\n`)
      .join('')
      .slice(0, bytes);
    c.messages.push({ role: 'assistant', content: [{ type: 'tool_use', id, name: 'Read', input: { file_path: `/src/f${i}.ts` } }] });
    c.messages.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: text }] });
  }
  return c.body();
}

/** A body that sends `head`, then stalls until `finish` hands it the rest (never, if it is not called). */
function stalledBody(head: Buffer): { body: AsyncIterable<Uint8Array>; sent: Promise<void>; finish: (rest: Buffer) => void } {
  let finish: (rest: Buffer) => void = () => undefined;
  const rest = new Promise<Buffer>((resolve) => {
    finish = resolve;
  });
  let sent: () => void = () => undefined;
  const headSent = new Promise<void>((resolve) => {
    sent = resolve;
  });
  async function* body(): AsyncIterable<Uint8Array> {
    yield head;
    sent();
    yield await rest;
  }
  return { body: body(), sent: headSent, finish };
}

async function* chunksOf(body: Buffer, size: number): AsyncIterable<Uint8Array> {
  for (let at = 0; at < body.length; at += size) yield body.subarray(at, at + size);
}

describe('handleProxyRequest', () => {
  it('should pass a request with no epoch through byte for byte and record it', async () => {
    const { deps, api, records } = await setUp();
    const body = conversation(2, 2000);

    const response = await handleProxyRequest(deps, request(chunksOf(body, 1000)));
    const got = await settle(response);

    expect(response.status).toBe(200);
    expect(JSON.parse(got.toString('utf8'))).toMatchObject({ type: 'message', role: 'assistant' });
    const sent = api.requests.filter(isMessagesRequest);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.body.equals(body)).toBe(true);
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ status: 200, bytesIn: body.length, bytesOut: body.length, responseBytes: got.length, reason: 'no_epoch' });
  });

  it('should send the rewrite once an epoch latched, and record what it elided', async () => {
    const { deps, api, records } = await setUp();
    const body = conversation(20, 4000);

    await settle(await handleProxyRequest(deps, request(body)));
    const response = await handleProxyRequest(deps, request(body));
    await settle(response);

    expect(response.status).toBe(200);
    const sent = api.requests.filter(isMessagesRequest);
    expect(sent).toHaveLength(2);
    expect(sent[1]!.body.length).toBeLessThan(body.length);
    expect(records[1]).toMatchObject({ status: 200, bytesIn: body.length, bytesOut: sent[1]!.body.length, epochs: 1, latched: 1 });
    expect(Number(records[1]!['rescued'])).toBeGreaterThan(0);
  });

  it('should refuse a request from a web page with a 403 in the API error shape, and forward nothing', async () => {
    const { deps, api, records } = await setUp();

    const response = await handleProxyRequest(deps, request(conversation(1, 100), { headers: { ...MODEL_HEADERS, origin: 'https://evil.example' } }));
    const got = await settle(response);

    expect(response.status).toBe(403);
    expect(JSON.parse(got.toString('utf8'))).toMatchObject({ type: 'error', error: { type: 'permission_error' } });
    expect(api.requests).toHaveLength(0);
    expect(records).toEqual([expect.objectContaining({ status: 403, refused: 'browser_origin', responseBytes: got.length })]);
  });

  it('should answer its own metrics route itself, and record nothing', async () => {
    const { deps, api, records } = await setUp();

    const response = await handleProxyRequest(deps, request(Buffer.alloc(0), { method: 'GET', url: '/_ctxshed/metrics' }));
    const got = await settle(response);

    expect(response.status).toBe(200);
    expect(got.toString('utf8')).toContain('ctxshed_requests_total');
    expect(api.requests).toHaveLength(0);
    expect(records).toHaveLength(0);
  });

  it('should answer a body over the limit with a 413 that closes the connection, forwarding nothing', async () => {
    const { deps, api } = await setUp({}, { maxRequestBytes: 10_000 });
    const body = conversation(4, 4000);

    const response = await handleProxyRequest(deps, request(chunksOf(body, 3000)));
    const got = await settle(response);

    expect(response.status).toBe(413);
    expect(response.headers['connection']).toBe('close');
    expect(JSON.parse(got.toString('utf8'))).toMatchObject({ type: 'error', error: { type: 'request_too_large' } });
    expect(api.requests).toHaveLength(0);
  });

  it('should answer a body that stalls with a 408 in the API error shape that closes the connection, forwarding nothing, and record why', async () => {
    const { deps, api, records } = await setUp({}, { bodyIdleTimeoutMs: 20 });
    const budget = new BodyBudget(1_000_000);
    const stalled = stalledBody(conversation(4, 4000).subarray(0, 5000));

    const response = await handleProxyRequest({ ...deps, bodyBudget: budget }, request(stalled.body));
    const got = await settle(response);

    expect(response.status).toBe(408);
    expect(response.headers['connection']).toBe('close');
    expect(JSON.parse(got.toString('utf8'))).toMatchObject({ type: 'error', error: { type: 'timeout_error', message: expect.stringContaining('stalled') } });
    expect(api.requests).toHaveLength(0);
    expect(records).toEqual([expect.objectContaining({ status: 408, refused: 'body_timeout', bytesOut: 0 })]);
    expect(budget.held).toBe(0);
  });

  it('should answer a body that would pass the bytes in flight across connections with a 429, and serve again once they are given back', async () => {
    const { deps, api, records } = await setUp({}, { bodyIdleTimeoutMs: 10_000 });
    const served = { ...deps, bodyBudget: new BodyBudget(12_000) };
    const first = conversation(2, 4000);
    const holding = stalledBody(first.subarray(0, 9000));

    // Arrange: one upload holds 9000 bytes of the 12000 and waits for the rest.
    const pending = handleProxyRequest(served, request(holding.body));
    await holding.sent;
    const refused = await handleProxyRequest(served, request(chunksOf(conversation(1, 4000), 1000)));
    const refusedBody = await settle(refused);
    holding.finish(first.subarray(9000));
    await settle(await pending);
    const after = await handleProxyRequest(served, request(chunksOf(conversation(1, 4000), 1000)));
    await settle(after);

    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBe('1');
    expect(refused.headers['connection']).toBe('close');
    expect(JSON.parse(refusedBody.toString('utf8'))).toMatchObject({ type: 'error', error: { type: 'rate_limit_error' } });
    expect(after.status).toBe(200);
    expect(api.requests.filter(isMessagesRequest)).toHaveLength(2);
    expect(records.map((r) => r['refused'] ?? r['status'])).toEqual(['body_budget', 200, 200]);
    expect(served.bodyBudget.held).toBe(0);
  });

  it('should answer an upstream that cannot be reached with a 502 in the API error shape, and record its code', async () => {
    const closed = await startMessagesApi();
    const url = closed.url;
    await closed.close();
    const { deps, records } = await setUp({}, {}, url);

    const response = await handleProxyRequest(deps, request(conversation(1, 100)));
    const got = await settle(response);

    expect(response.status).toBe(502);
    expect(JSON.parse(got.toString('utf8'))).toMatchObject({ type: 'error', error: { type: 'api_error' } });
    expect(records).toEqual([expect.objectContaining({ status: 502, error: 'UPSTREAM_CONNECT_FAILED' })]);
  });

  it('should write one line for a person per failed upstream request, with its method, path, code and duration and no secret', async () => {
    const closed = await startMessagesApi();
    const url = closed.url;
    await closed.close();
    const edge = await setUp({}, {}, url);
    const lines: string[] = [];
    const deps = { ...edge.deps, log: (line: string) => lines.push(line) };

    await settle(await handleProxyRequest(deps, request(conversation(1, 100), { url: '/v1/messages?beta=true&key=sk-ant-query-secret' })));
    await settle(
      await handleProxyRequest(
        { ...edge.deps, log: deps.log, transport: { ...edge.deps.transport, upstream: new URL(edge.api.url) } },
        request(conversation(1, 100)),
      ),
    );

    expect(lines).toEqual([expect.stringMatching(/^ctxshed: upstream request failed: POST \/v1\/messages -> 502, UPSTREAM_CONNECT_FAILED after \d+ ms$/)]);
    expect(lines.join('\n')).not.toMatch(/sk-ant|beta=true/);
  });

  it("should hold back the API's refusal as too long and answer with the retry's response", async () => {
    const { deps, api, records } = await setUp({ maxPromptTokens: 16_000 }, { threshold: 0.9 });
    const body = conversation(20, 4000);

    const response = await handleProxyRequest(deps, request(body));
    const got = await settle(response);

    expect(response.status).toBe(200);
    expect(JSON.parse(got.toString('utf8'))).toMatchObject({ type: 'message' });
    const sent = api.requests.filter(isMessagesRequest);
    expect(sent).toHaveLength(2);
    expect(sent[1]!.body.length).toBeLessThan(body.length);
    expect(records).toEqual([
      expect.objectContaining({
        status: 200,
        responseBytes: got.length,
        retry: expect.objectContaining({ reason: 'overflow', firstStatus: 400, sent: true, status: 200 }),
      }),
    ]);
  });

  it('should hand back the body as a stream, and cut the upstream when its reader destroys it (the client gone)', async () => {
    let upstreamClosed = (): void => undefined;
    const closed = new Promise<void>((resolve) => {
      upstreamClosed = resolve;
    });
    // The upstream sends one event and then keeps the stream open.
    const { deps, records } = await setUp({
      respond: () => ({
        kind: 'custom',
        write: (res) => {
          res.on('close', () => upstreamClosed());
          res.writeHead(200, { 'content-type': 'text/event-stream' });
          res.write('event: ping\ndata: {"type":"ping"}\n\n');
        },
      }),
    });

    const response = await handleProxyRequest(deps, request(conversation(1, 100)));
    const first = await new Promise<Buffer>((resolve) => response.body.once('data', resolve));
    response.body.destroy();
    await closed; // never settles, and the test times out, while the upstream request stays open
    await response.finished;

    expect(response.body).toBeInstanceOf(Readable);
    expect(first.toString()).toContain('"ping"');
    expect(records).toEqual([expect.objectContaining({ status: 200, responseBytes: first.length, error: 'CLIENT_CLOSED' })]);
  });

  it('should cut the upstream request when the client goes away, and record why', async () => {
    let received = (): void => undefined;
    const arrived = new Promise<void>((resolve) => {
      received = resolve;
    });
    // The upstream never answers: the request is waiting on it when the client leaves.
    const { deps, records } = await setUp({
      respond: () => {
        received();
        return new Promise(() => undefined);
      },
    });
    const gone = new AbortController();

    const pending = handleProxyRequest(deps, request(conversation(1, 100), { signal: gone.signal }));
    await arrived;
    const sockets = Object.values(deps.agents.http.sockets).flat();
    const upstreamClosed = Promise.all(sockets.map((socket) => new Promise((resolve) => socket?.once('close', resolve))));
    gone.abort();
    const response = await pending;

    await expect(settle(response)).rejects.toThrow();
    await response.finished;
    expect(sockets).toHaveLength(1);
    await upstreamClosed; // never settles, and the test times out, while the upstream request stays open
    expect(records).toEqual([expect.objectContaining({ status: 0, error: 'CLIENT_CLOSED' })]);
  });
});
