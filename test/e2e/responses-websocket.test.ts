/**
 * The real proxy on port 0 serving the Responses WebSocket (docs/openai.md "WebSockets"): the
 * scripted client speaks it as Codex 0.171.0 does, the scripted upstream speaks HTTP only and
 * refuses any `previous_response_id` (it stores nothing), so every accepted turn proves ctxshed
 * sent the whole input. Errors come back as `error` events, bad frames close the socket.
 */
import http from 'node:http';
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { findStubs } from '../../src/core/epochs/inflate.js';
import { RESPONSES_API } from '../../src/core/dialects/responses.js';
import type { TranscriptIndex } from '../../src/core/transcript-index-types.js';
import type { RunningProxy } from '../../src/proxy/start-proxy.js';
import { encodeFrame, OPCODE } from '../../src/proxy/websocket/frame-writer.js';
import { layoutPaths } from '../../src/state/layout.js';
import { readConversation } from '../../src/state/read-conversation.js';
import { OpenAiScriptedClient, readAnswer } from '../support/openai-scripted-client.js';
import { parseScrape, sumOf } from '../support/prom-text.js';
import { functionCall, isResponsesRequest, responsesUsage, startOpenAiUpstream, type OpenAiUpstream } from '../support/responses-upstream.js';
import { startTestProxy, tempStateDir, testConfig, waitForWire } from '../support/test-proxy.js';
import { openWebSocket } from '../support/websocket-client.js';
import { blocksOf } from '../../src/core/epoch-items.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

const BYTES_PER_TOKEN = 4;

/** A model that calls one tool per turn and reports the body's size as its input, the previous turn's as cached; `fail` answers a turn with a raw reply instead. */
async function startModel(fail?: (n: number) => { status: number; body: string } | undefined): Promise<OpenAiUpstream> {
  let previous = 0;
  let n = 0;
  return startOpenAiUpstream((req) => {
    n += 1;
    const failure = fail?.(n);
    if (failure !== undefined) return { kind: 'raw', ...failure };
    const input = Math.ceil(req.body.length / BYTES_PER_TOKEN);
    const cached = Math.min(previous, input);
    previous = input;
    return { kind: 'response', output: [functionCall('exec_command', { cmd: `cat file-${n}.txt` }, `call_${n}`)], usage: responsesUsage(input, cached) };
  });
}

async function setUp(
  fail?: (n: number) => { status: number; body: string } | undefined,
): Promise<{ dir: string; upstream: OpenAiUpstream; proxy: RunningProxy }> {
  const dir = await tempStateDir('ctxshed-websocket-e2e-');
  const upstream = await startModel(fail);
  const proxy = await startTestProxy(dir, testConfig(upstream.baseUrl.replace(/\/v1$/, '')));
  cleanups.push(
    () => upstream.close(),
    () => proxy.close(),
  );
  return { dir, upstream, proxy };
}

function mustIndex(body: Uint8Array): TranscriptIndex {
  const outcome = RESPONSES_API.index(body);
  if (outcome.kind !== 'indexed') throw new Error(`${outcome.reason}: ${outcome.detail}`);
  return outcome.index;
}

describe('rescue proxy, a Responses session over the WebSocket', () => {
  it('should send each turn upstream as the whole HTTP body, latch, stub the frozen outputs and keep the prefix', async () => {
    // Arrange
    const { dir, upstream, proxy } = await setUp();
    const client = new OpenAiScriptedClient(proxy.url, 'responses', () => 3000, 'websocket');
    cleanups.push(() => client.closeSocket());

    // Act
    for (let i = 0; i < 30; i++) expect((await client.turnOnce()).status).toBe(200);

    // Assert
    const wire = (await waitForWire(dir, 31)).filter((r) => r['route'] === 'responses');
    expect(wire.every((r) => r['transport'] === 'websocket')).toBe(true);
    expect(wire.filter((r) => r['warmup'] === true)).toHaveLength(1);
    const calls = wire.filter((r) => r['warmup'] === undefined);
    expect(calls).toHaveLength(30);
    const received = upstream.requests.filter(isResponsesRequest).map((r) => r.body);
    expect(received).toHaveLength(30);
    const firstLatch = calls.findIndex((r) => r['latched'] !== undefined);
    expect(firstLatch).toBeGreaterThan(0);
    // Before the epoch, byte for byte the body the client's HTTP transport sends.
    for (let i = 0; i < firstLatch; i++) expect(received[i]!.equals(client.sent[i]!)).toBe(true);
    const record = await readConversation(layoutPaths(dir), String(calls[firstLatch]!['key']));
    const frozen = record!.epochs.flatMap((e) => blocksOf(e).map((b) => b.ordinal)).sort((a, b) => a - b);
    const last = received.at(-1)!;
    expect(findStubs(last, mustIndex(last)).map((f) => f.ordinal)).toEqual(frozen);
    for (let i = firstLatch + 1; i < received.length; i++) {
      if (calls[i]!['latched'] !== undefined) continue;
      const itemsEnd = mustIndex(received[i - 1]!).messagesSpan.end - 1;
      expect(received[i]!.subarray(0, itemsEnd).equals(received[i - 1]!.subarray(0, itemsEnd))).toBe(true);
    }
    const scrape = parseScrape(await (await fetch(`${proxy.url}/_ctxshed/metrics`)).text());
    expect(sumOf(scrape, 'ctxshed_requests_total', { route: 'responses', status: '200' })).toBe(31);
  });

  it("should forward a previous_response_id it did not complete as sent, and relay the upstream's 400 as an error event", async () => {
    // Arrange
    const { dir, upstream, proxy } = await setUp();
    const socket = await openWebSocket(`${proxy.url}/v1/responses`);

    // Act
    socket.send(JSON.stringify({ type: 'response.create', model: 'gpt-test', stream: true, previous_response_id: 'resp_unknown', input: [] }));
    const answer = await readAnswer(socket);

    // Assert
    expect(answer.status).toBe(400);
    const event = JSON.parse(answer.body.slice('data: '.length)) as Record<string, unknown>;
    expect(event).toMatchObject({
      type: 'error',
      status: 400,
      error: { type: 'invalid_request_error', code: 'previous_response_not_found', param: 'previous_response_id' },
    });
    expect(JSON.parse(upstream.requests[0]!.body.toString('utf8'))).toEqual({
      model: 'gpt-test',
      stream: true,
      previous_response_id: 'resp_unknown',
      input: [],
    });
    const [record] = await waitForWire(dir, 1);
    expect(record).toMatchObject({ method: 'POST', route: 'responses', status: 400, reason: 'previous_response_foreign', transport: 'websocket' });
    socket.close();
    expect(await socket.closed).toBe(1000);
  });

  it("should relay an upstream HTTP error as an error event with its status and the API's error object, and keep the socket open", async () => {
    // Arrange
    const rateLimited = JSON.stringify({ error: { message: 'Rate limit reached', type: 'requests', param: null, code: 'rate_limit_exceeded' } });
    const { proxy } = await setUp((n) => (n === 1 ? { status: 429, body: rateLimited } : undefined));
    const client = new OpenAiScriptedClient(proxy.url, 'responses', () => 3000, 'websocket');
    cleanups.push(() => client.closeSocket());

    // Act
    const first = await client.turnOnce();
    const second = await client.turnOnce();

    // Assert
    expect(first.status).toBe(429);
    expect(JSON.parse(first.body.slice('data: '.length))).toEqual({ type: 'error', status: 429, error: JSON.parse(rateLimited).error });
    expect(second.status).toBe(200);
  });

  it('should close with 1002 on an unmasked frame, record it, and go on serving', async () => {
    // Arrange
    const { dir, proxy } = await setUp();
    const socket = await openWebSocket(`${proxy.url}/v1/responses`);

    // Act
    socket.sendRaw(encodeFrame(OPCODE.text, Buffer.from('{"type":"response.create"}')));

    // Assert
    expect(await socket.closed).toBe(1002);
    const [record] = await waitForWire(dir, 1);
    expect(record).toMatchObject({ method: 'GET', path: '/v1/responses', status: 101, transport: 'websocket', closeCode: 1002 });
    const client = new OpenAiScriptedClient(proxy.url, 'responses', () => 3000, 'websocket');
    cleanups.push(() => client.closeSocket());
    expect((await client.turnOnce()).status).toBe(200);
  });

  it('should accept an upgrade that names the gateway by another host under an owner rule, and refuse it without one', async () => {
    // Arrange
    const dir = await tempStateDir('ctxshed-websocket-e2e-');
    const upstream = await startModel();
    const open = (proxy: RunningProxy): Promise<string> => {
      const socket = net.connect(proxy.port, '127.0.0.1');
      return new Promise<string>((resolve) => {
        let text = '';
        socket.on('data', (d: Buffer) => {
          text += d.toString();
          if (text.includes('\r\n\r\n')) socket.destroy();
        });
        socket.on('close', () => resolve(text));
        socket.write(
          'GET /v1/responses HTTP/1.1\r\nHost: gateway.team.example:8787\r\nAuthorization: Bearer sk-owner-a\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n',
        );
      });
    };
    const config = testConfig(upstream.baseUrl.replace(/\/v1$/, ''));
    const gateway = await startTestProxy(dir, config, { ownerRule: { kind: 'credential' } });
    const single = await startTestProxy(await tempStateDir('ctxshed-websocket-e2e-'), config);
    cleanups.push(
      () => upstream.close(),
      () => gateway.close(),
      () => single.close(),
    );

    // Act
    const accepted = await open(gateway);
    const refused = await open(single);

    // Assert
    expect(accepted).toMatch(/^HTTP\/1\.1 101 /);
    expect(refused).toMatch(/^HTTP\/1\.1 403 Forbidden\r\n/);
  });

  it('should answer 426 to an upgrade on a Messages route, and 403 to one from a web page, recording each', async () => {
    // Arrange
    const { dir, upstream, proxy } = await setUp();
    const upgrade = (path: string, extra: string): Promise<string> => {
      const socket = net.connect(proxy.port, '127.0.0.1');
      const reply = new Promise<string>((resolve) => {
        let text = '';
        socket.on('data', (d: Buffer) => (text += d.toString()));
        socket.on('close', () => resolve(text));
      });
      socket.end(
        `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${proxy.port}\r\n${extra}Connection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n`,
      );
      return reply;
    };

    // Act
    const messages = await upgrade('/v1/messages', '');
    const page = await upgrade('/v1/responses', 'Origin: https://evil.example\r\n');

    // Assert
    expect(messages).toMatch(/^HTTP\/1\.1 426 Upgrade Required\r\n/);
    expect(page).toMatch(/^HTTP\/1\.1 403 Forbidden\r\n/);
    expect(upstream.requests).toEqual([]);
    const records = await waitForWire(dir, 2);
    expect(records).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ path: '/v1/messages', status: 426, refused: 'websocket_upgrade' }),
        expect.objectContaining({ path: '/v1/responses', status: 403, refused: 'browser_origin' }),
      ]),
    );
  });

  it('should close the socket with 1011 when the upstream drops mid-answer, and record the request', async () => {
    // Arrange: an upstream that starts a stream, sends one event, then drops the connection.
    const dropping = http.createServer((req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('event: response.created\ndata: {"type":"response.created","response":{"id":"resp_1","status":"in_progress","output":[]}}\n\n');
      setImmediate(() => res.socket?.destroy());
    });
    await new Promise<void>((resolve) => dropping.listen(0, '127.0.0.1', () => resolve()));
    const dir = await tempStateDir('ctxshed-websocket-e2e-');
    const proxy = await startTestProxy(dir, testConfig(`http://127.0.0.1:${(dropping.address() as net.AddressInfo).port}`));
    cleanups.push(
      () => new Promise<void>((resolve) => dropping.close(() => resolve())),
      () => proxy.close(),
    );
    const socket = await openWebSocket(`${proxy.url}/v1/responses`);

    // Act
    socket.send(JSON.stringify({ type: 'response.create', model: 'gpt-test', stream: true, input: [] }));

    // Assert
    expect(JSON.parse((await socket.next())!)).toMatchObject({ type: 'response.created' });
    expect(await socket.closed).toBe(1011);
    const [record] = await waitForWire(dir, 1);
    expect(record).toMatchObject({ method: 'POST', path: '/v1/responses', transport: 'websocket' });
  });
});
