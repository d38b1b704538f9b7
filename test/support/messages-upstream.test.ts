import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { gunzipSync } from 'node:zlib';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import {
  assistantMessage,
  isCountTokensRequest,
  replyWith,
  sseFromMessage,
  startMessagesUpstream,
  toolUse,
  type MessagesUpstream,
  type ReceivedRequest,
  type Responder,
} from './messages-upstream.js';

interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  /** Exactly the bytes on the wire after de-chunking, never decompressed. */
  body: Buffer;
  /** The body as the separate reads that arrived. */
  reads: Buffer[];
}

/** A plain node:http call, so compression and framing stay visible to the test. */
async function call(
  url: string,
  opts: { method?: string; path?: string; headers?: Record<string, string>; body?: Buffer | string } = {},
): Promise<RawResponse> {
  const { hostname, port } = new URL(url);
  return await new Promise((resolve, reject) => {
    const req = httpRequest(
      { hostname, port, method: opts.method ?? 'POST', path: opts.path ?? '/v1/messages?beta=true', headers: opts.headers ?? {} },
      (res) => {
        const reads: Buffer[] = [];
        res.on('data', (c: Buffer) => reads.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(reads), reads }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(opts.body);
  });
}

function parseSse(text: string): Array<{ event: string; data: unknown }> {
  return text
    .split('\n\n')
    .filter((frame) => frame.length > 0)
    .map((frame) => {
      const [eventLine = '', dataLine = ''] = frame.split('\n');
      return { event: eventLine.replace(/^event: /, ''), data: JSON.parse(dataLine.replace(/^data: /, '')) as unknown };
    });
}

/** Rebuild a Message from its stream, the way a client SDK accumulates one. */
function accumulate(events: Array<{ event: string; data: unknown }>): Record<string, unknown> {
  let message: Record<string, unknown> = {};
  const blocks: Array<Record<string, unknown>> = [];
  const partialJson: string[] = [];
  for (const { data } of events) {
    const d = data as Record<string, any>;
    switch (d['type']) {
      case 'message_start':
        message = { ...d['message'] };
        break;
      case 'content_block_start':
        blocks[d['index']] = { ...d['content_block'] };
        partialJson[d['index']] = '';
        break;
      case 'content_block_delta': {
        const block = blocks[d['index']]!;
        const delta = d['delta'];
        if (delta.type === 'text_delta') block['text'] = `${String(block['text'])}${delta.text}`;
        if (delta.type === 'thinking_delta') block['thinking'] = `${String(block['thinking'])}${delta.thinking}`;
        if (delta.type === 'signature_delta') block['signature'] = delta.signature;
        if (delta.type === 'input_json_delta') partialJson[d['index']] += delta.partial_json;
        break;
      }
      case 'content_block_stop':
        if (blocks[d['index']]!['type'] === 'tool_use') blocks[d['index']]!['input'] = JSON.parse(partialJson[d['index']]!);
        break;
      case 'message_delta':
        message = { ...message, ...d['delta'], usage: { ...(message['usage'] as object), ...d['usage'] } };
        break;
    }
  }
  return { ...message, content: blocks };
}

const MESSAGE = assistantMessage({
  content: [{ type: 'text', text: 'Reading it.' }, toolUse('Read', { file_path: '/tmp/x.txt' })],
  usage: { input_tokens: 12, cache_creation_input_tokens: 3000, cache_read_input_tokens: 9000, output_tokens: 40 },
});

let upstream: MessagesUpstream | undefined;
afterEach(async () => {
  await upstream?.close();
  upstream = undefined;
});

async function start(responder: Responder): Promise<MessagesUpstream> {
  upstream = await startMessagesUpstream(responder);
  return upstream;
}

describe('startMessagesUpstream', () => {
  it('should listen on 127.0.0.1 and give a base URL without a trailing slash', async () => {
    const up = await start(() => undefined);

    expect(up.url).toBe(`http://127.0.0.1:${up.port}`);
    expect(up.port).toBeGreaterThan(0);
  });

  it('should record the exact body bytes, the raw path and arrival order', async () => {
    const up = await start((req) => replyWith(req, MESSAGE));
    const odd = Buffer.from('{ "model":"m" ,"messages":[{"role":"user","content":"h\\u00e9llo \u2713 \ud83d\ude00"}] }\n', 'utf8');
    const seen: number[] = [];
    up.onRequest = (r) => seen.push(r.index);

    await call(up.url, { body: odd, headers: { 'x-claude-code-session-id': 's-1' } });
    await call(up.url, { path: '/v1/messages/count_tokens?beta=true', body: '{}' });

    expect(up.requests.map((r) => [r.index, r.method, r.path])).toEqual([
      [0, 'POST', '/v1/messages?beta=true'],
      [1, 'POST', '/v1/messages/count_tokens?beta=true'],
    ]);
    expect(up.requests[0]!.body.equals(odd)).toBe(true);
    expect(up.requests[0]!.headers['x-claude-code-session-id']).toBe('s-1');
    expect(seen).toEqual([0, 1]);
  });

  it('should send a json reply with its status and headers', async () => {
    const up = await start(() => ({ kind: 'json', status: 429, headers: { 'retry-after': '1' }, body: { a: 'ü' } }));

    const res = await call(up.url, { body: '{}' });

    expect(res.status).toBe(429);
    expect(res.headers['retry-after']).toBe('1');
    expect(res.headers['content-type']).toBe('application/json');
    expect(JSON.parse(res.body.toString('utf8'))).toEqual({ a: 'ü' });
  });

  it('should gzip a json reply when asked', async () => {
    const up = await start(() => ({ kind: 'json', body: { ok: true }, gzip: true }));

    const res = await call(up.url, { body: '{}' });

    expect(res.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(res.body).toString('utf8'))).toEqual({ ok: true });
  });

  it('should stream sse events in order as event/data frames', async () => {
    const events = [
      { event: 'ping', data: { type: 'ping' } },
      { event: 'message_stop', data: { type: 'message_stop' } },
    ];
    const up = await start(() => ({ kind: 'sse', events }));

    const res = await call(up.url, { body: '{"stream":true}' });

    expect(res.headers['content-type']).toMatch(/^text\/event-stream/);
    expect(res.body.toString('utf8')).toBe(
      'event: ping\ndata: {"type":"ping"}\n\nevent: message_stop\ndata: {"type":"message_stop"}\n\n',
    );
  });

  it('should flush each gzipped sse event as it is written', async () => {
    const events = sseFromMessage(MESSAGE);
    const up = await start(() => ({ kind: 'sse', events, gzip: true, delayMs: 5 }));

    const res = await call(up.url, { body: '{"stream":true}' });

    expect(res.headers['content-encoding']).toBe('gzip');
    expect(parseSse(gunzipSync(res.body).toString('utf8'))).toEqual(events);
    expect(res.reads.length).toBeGreaterThan(1);
  });

  it('should write raw chunks untouched', async () => {
    const up = await start(() => ({ kind: 'raw', status: 502, headers: { 'content-type': 'text/html' }, chunks: ['<h1>', Buffer.from([0xff, 0x00])] }));

    const res = await call(up.url, { body: '{}' });

    expect(res.status).toBe(502);
    expect(res.body.equals(Buffer.concat([Buffer.from('<h1>'), Buffer.from([0xff, 0x00])]))).toBe(true);
  });

  it('should answer HEAD / with 200 and unknown paths with an Anthropic-shaped 404', async () => {
    const up = await start(() => {
      throw new Error('not for these');
    });

    const head = await call(up.url, { method: 'HEAD', path: '/' });
    const unknown = await call(up.url, { method: 'GET', path: '/v1/models' });
    const wrongMethod = await call(up.url, { method: 'GET', path: '/v1/messages' });

    expect(head.status).toBe(200);
    expect(unknown.status).toBe(404);
    expect(JSON.parse(unknown.body.toString('utf8'))).toMatchObject({ type: 'error', error: { type: 'not_found_error' } });
    expect(wrongMethod.status).toBe(405);
    expect(up.requests).toHaveLength(3);
  });

  it('should count tokens as bytes/4 when the responder declines', async () => {
    const up = await start((req) => (isCountTokensRequest(req) ? undefined : replyWith(req, MESSAGE)));
    const body = 'x'.repeat(4001);

    const res = await call(up.url, { path: '/v1/messages/count_tokens?beta=true', body });

    expect(JSON.parse(res.body.toString('utf8'))).toEqual({ input_tokens: 1001 });
  });

  it('should let the responder answer count_tokens itself', async () => {
    const up = await start(() => ({ kind: 'json', body: { input_tokens: 7 } }));

    const res = await call(up.url, { path: '/v1/messages/count_tokens', body: '{}' });

    expect(JSON.parse(res.body.toString('utf8'))).toEqual({ input_tokens: 7 });
  });

  it('should answer 500 api_error when the responder declines a model call or throws', async () => {
    let n = 0;
    const up = await start(() => {
      n += 1;
      if (n === 1) return undefined;
      throw new Error('boom');
    });

    const declined = await call(up.url, { body: '{}' });
    const threw = await call(up.url, { body: '{}' });

    expect(declined.status).toBe(500);
    expect(threw.status).toBe(500);
    expect(JSON.parse(threw.body.toString('utf8'))).toMatchObject({ error: { type: 'api_error' } });
  });

  it('should refuse CONNECT and record the attempt', async () => {
    const up = await start(() => undefined);

    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest({ hostname: '127.0.0.1', port: up.port, method: 'CONNECT', path: 'api.anthropic.com:443' });
      req.on('connect', (res, socket) => {
        socket.destroy();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end();
    });

    expect(status).toBe(403);
    expect(up.requests.map((r) => [r.method, r.path])).toEqual([['CONNECT', 'api.anthropic.com:443']]);
  });

  it('should close while a keep-alive connection is still open', async () => {
    const up = await start((req) => replyWith(req, MESSAGE));
    await fetch(`${up.url}/v1/messages`, { method: 'POST', body: '{}' }).then(async (r) => r.text());

    await expect(up.close()).resolves.toBeUndefined();
    upstream = undefined;
  });
});

describe('assistantMessage', () => {
  it('should infer stop_reason from the content and fill in the usage fields', () => {
    const withTool = assistantMessage({ content: [toolUse('Bash', { command: 'ls' })], usage: { input_tokens: 1, output_tokens: 2 } });
    const textOnly = assistantMessage({ content: [{ type: 'text', text: 'done' }], usage: { input_tokens: 1, output_tokens: 2 } });

    expect(withTool).toMatchObject({
      type: 'message',
      role: 'assistant',
      stop_reason: 'tool_use',
      usage: { input_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 2 },
    });
    expect(textOnly).toMatchObject({ stop_reason: 'end_turn' });
  });

  it('should keep an explicit stopReason and model', () => {
    const m = assistantMessage({ content: [], usage: { input_tokens: 1, output_tokens: 1 }, stopReason: 'max_tokens', model: 'm-1' });

    expect(m).toMatchObject({ stop_reason: 'max_tokens', model: 'm-1' });
  });
});

describe('toolUse', () => {
  it('should give each block a distinct toolu_ id', () => {
    const a = toolUse('Read', {}) as { id: string };
    const b = toolUse('Read', {}) as { id: string };

    expect(a.id).toMatch(/^toolu_01/);
    expect(a.id).not.toBe(b.id);
  });
});

describe('sseFromMessage', () => {
  it('should frame the stream the way the API does', () => {
    const types = sseFromMessage(MESSAGE).map((e) => e.event);

    expect(types[0]).toBe('message_start');
    expect(types[1]).toBe('content_block_start');
    expect(types[2]).toBe('ping');
    expect(types.slice(-2)).toEqual(['message_delta', 'message_stop']);
    for (const e of sseFromMessage(MESSAGE)) expect((e.data as { type: string }).type).toBe(e.event);
  });

  it('should report input-side usage at message_start and the final usage at message_delta', () => {
    const events = sseFromMessage(MESSAGE);
    const start = events[0]!.data as { message: { usage: Record<string, number>; content: unknown[] } };
    const delta = events.at(-2)!.data as { usage: Record<string, number>; delta: { stop_reason: string } };

    expect(start.message.content).toEqual([]);
    expect(start.message.usage).toMatchObject({ input_tokens: 12, cache_creation_input_tokens: 3000, cache_read_input_tokens: 9000 });
    expect(delta.usage['output_tokens']).toBe(40);
    expect(delta.delta.stop_reason).toBe('tool_use');
  });

  it('should always accumulate back to the message it came from', () => {
    const block = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 300 }).map((text) => ({ type: 'text', text })),
      fc
        .record({ name: fc.string({ minLength: 1, maxLength: 10 }), input: fc.dictionary(fc.string(), fc.jsonValue()) })
        .map(({ name, input }) => toolUse(name, JSON.parse(JSON.stringify(input)) as Record<string, unknown>)),
      fc
        .record({ thinking: fc.string({ unit: 'grapheme', maxLength: 200 }), signature: fc.base64String() })
        .map(({ thinking, signature }) => ({ type: 'thinking', thinking, signature })),
    );
    fc.assert(
      fc.property(fc.array(block, { maxLength: 4 }), (content) => {
        const message = assistantMessage({ content, usage: { input_tokens: 5, output_tokens: 9 } });

        const rebuilt = accumulate(sseFromMessage(message));

        expect(rebuilt).toEqual(message);
      }),
    );
  });
});

describe('replyWith', () => {
  const req = (body: string): ReceivedRequest => ({ method: 'POST', path: '/v1/messages', headers: {}, body: Buffer.from(body), index: 0 });

  it('should stream when the request body says stream:true', () => {
    expect(replyWith(req('{"model":"m","stream":true}'), MESSAGE).kind).toBe('sse');
  });

  it('should answer json otherwise, including for a body that is not JSON', () => {
    expect(replyWith(req('{"stream":false}'), MESSAGE)).toEqual({ kind: 'json', body: MESSAGE });
    expect(replyWith(req('not json'), MESSAGE).kind).toBe('json');
  });
});
