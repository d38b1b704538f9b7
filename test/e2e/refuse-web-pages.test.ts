/**
 * A web page must not be able to use the proxy (src/proxy/client-guard.ts): the DNS-rebinding
 * reproduction of issue 21, replayed with node's http client against the real proxy on port 0.
 */
import fs from 'node:fs/promises';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunningProxy } from '../../src/proxy/start-proxy.js';
import { ScriptedClient } from '../../src/scripted/client.js';
import type { MessagesApi } from '../../src/scripted/messages-api.js';
import { startTestApi } from '../support/scripted-api.js';
import { postRaw, type RawResponse } from '../../src/scripted/post-raw.js';
import { readWire, startTestProxy, tempStateDir, testConfig, waitForWire } from '../support/test-proxy.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

const TURNS = 20;

async function setUp(): Promise<{ dir: string; upstream: MessagesApi; proxy: RunningProxy }> {
  const dir = await tempStateDir();
  const upstream = await startTestApi();
  const proxy = await startTestProxy(dir, testConfig(upstream.url));
  cleanups.push(
    () => upstream.close(),
    () => proxy.close(),
  );
  return { dir, upstream, proxy };
}

/** The bodies of a scripted session of `TURNS` turns, played straight against an upstream of its own. */
async function sessionBodies(): Promise<Buffer[]> {
  const upstream = await startTestApi();
  const client = new ScriptedClient(upstream.url);
  cleanups.push(
    () => upstream.close(),
    () => client.close(),
  );
  for (let i = 0; i < TURNS; i += 1) expect((await client.turnOnce()).status).toBe(200);
  return client.sent;
}

/** The reproduction: `curl -H 'Host: rebind.attacker.example:P' -H 'Origin: ...' -H 'content-type: text/plain' --data @body`. */
function rebound(proxy: RunningProxy): Record<string, string> {
  return { host: `rebind.attacker.example:${proxy.port}`, origin: 'http://rebind.attacker.example', 'content-type': 'text/plain' };
}

async function filesIn(dir: string): Promise<string[]> {
  return fs.readdir(dir).catch(() => []);
}

interface Answer {
  readonly status: number;
  readonly text: string;
}

/** A GET with these headers and no Origin, as a browser sends for an <img> (node adds Host: 127.0.0.1:<port>). */
function get(port: number, target: string, headers: Record<string, string>): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method: 'GET', path: target, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.end();
  });
}

function errorOf(res: RawResponse): unknown {
  return JSON.parse(res.body.toString('utf8'));
}

describe('a web page reaching the proxy', () => {
  it('should be refused on every request of a session through DNS rebinding: nothing forwarded, no epoch, no file', async () => {
    const bodies = await sessionBodies();
    const { dir, upstream, proxy } = await setUp();

    const answers: RawResponse[] = [];
    for (const body of bodies) answers.push(await postRaw(proxy.url, '/v1/messages', body, rebound(proxy)));

    expect(answers.map((a) => a.status)).toEqual(bodies.map(() => 403));
    for (const answer of answers) {
      expect(errorOf(answer)).toMatchObject({
        type: 'error',
        error: {
          type: 'permission_error',
          message: expect.stringMatching(/^ctxshed: refused: Host "rebind\.attacker\.example:\d+" does not name this machine's loopback/),
        },
      });
    }
    expect(upstream.requests).toEqual([]);
    expect(await filesIn(path.join(dir, 'elided'))).toEqual([]);
    expect(await filesIn(path.join(dir, 'conversations'))).toEqual([]);
    const wire = await waitForWire(dir, TURNS);
    expect(wire).toHaveLength(TURNS);
    for (const record of wire)
      expect(record).toMatchObject({ path: '/v1/messages', route: 'messages', key: null, status: 403, refused: 'foreign_host', bytesOut: 0, rescued: 0 });
  });

  it('should latch and write files for the same bodies sent as an agent sends them (so the test above can fail)', async () => {
    const bodies = await sessionBodies();
    const { dir, upstream, proxy } = await setUp();

    for (const body of bodies) expect((await postRaw(proxy.url, '/v1/messages', body)).status).toBe(200);

    expect(upstream.requests).toHaveLength(TURNS);
    expect((await filesIn(path.join(dir, 'elided'))).length).toBeGreaterThan(0);
    expect((await filesIn(path.join(dir, 'conversations'))).length).toBe(1);
  });

  it('should refuse a loopback Host that comes with an Origin (a plain cross-origin POST), whatever the Origin', async () => {
    const { dir, upstream, proxy } = await setUp();
    const body = Buffer.from('{"model":"m","messages":[{"role":"user","content":"hi"}]}');

    const origins = ['http://attacker.example', 'null', `http://127.0.0.1:${proxy.port}`];
    const answers: RawResponse[] = [];
    for (const origin of origins) answers.push(await postRaw(proxy.url, '/v1/messages', body, { origin, 'content-type': 'text/plain' }));

    expect(answers.map((a) => a.status)).toEqual([403, 403, 403]);
    expect(errorOf(answers[1]!)).toMatchObject({ type: 'error', error: { type: 'permission_error', message: expect.stringContaining('Origin "null"') } });
    expect(upstream.requests).toEqual([]);
    expect((await waitForWire(dir, 3)).map((r) => r['refused'])).toEqual(['browser_origin', 'browser_origin', 'browser_origin']);
  });

  it('should refuse a cross-site GET a browser sends without an Origin (an <img>, a link), on every route, forwarding nothing', async () => {
    const { dir, upstream, proxy } = await setUp();
    const paths = ['/v1/models', '/v1/messages?beta=true', '/_ctxshed/metrics', '/_ctxshed/health'];

    const answers: Answer[] = [];
    for (const fetchSite of ['cross-site', 'same-site']) {
      for (const target of paths)
        answers.push(await get(proxy.port, target, { 'sec-fetch-site': fetchSite, 'sec-fetch-mode': 'no-cors', 'sec-fetch-dest': 'image' }));
    }

    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 403));
    expect(answers[0]!.text).toContain('Sec-Fetch-Site \\"cross-site\\"');
    expect(upstream.requests).toEqual([]);
    // Only the API's paths get wire records (the proxy's own never do).
    expect((await waitForWire(dir, 4)).map((r) => r['refused'])).toEqual([
      'browser_fetch_site',
      'browser_fetch_site',
      'browser_fetch_site',
      'browser_fetch_site',
    ]);
  });

  it('should forward a request that came through a port forward to another port, its Host naming that port (ssh -L, docker -p)', async () => {
    const { upstream, proxy } = await setUp();
    const forward = net.createServer((socket) => {
      const onward = net.connect(proxy.port, '127.0.0.1');
      socket.pipe(onward).pipe(socket);
      socket.on('error', () => onward.destroy());
      onward.on('error', () => socket.destroy());
    });
    await new Promise<void>((resolve) => forward.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise<void>((resolve) => forward.close(() => resolve())));
    const port = (forward.address() as AddressInfo).port;
    const body = Buffer.from('{"model":"m","messages":[{"role":"user","content":"hi"}]}');

    const res = await postRaw(`http://127.0.0.1:${port}`, '/v1/messages', body, { 'content-type': 'application/json', connection: 'close' });

    expect(port).not.toBe(proxy.port);
    expect(res.status).toBe(200);
    expect(upstream.requests).toHaveLength(1);
    expect(upstream.requests[0]!.headers['host']).not.toBe(`127.0.0.1:${port}`);
  });

  it('should answer an OpenAI route in the OpenAI error shape', async () => {
    const { upstream, proxy } = await setUp();
    const body = Buffer.from('{"model":"m","input":"hi"}');

    const res = await postRaw(proxy.url, '/v1/responses', body, rebound(proxy));

    expect(res.status).toBe(403);
    expect(errorOf(res)).toEqual({
      error: { message: expect.stringMatching(/^ctxshed: refused: Host/), type: 'invalid_request_error', param: null, code: 'foreign_host' },
    });
    expect(upstream.requests).toEqual([]);
  });

  it("should refuse the proxy's own metrics to a page too, without a wire record", async () => {
    const { dir, proxy } = await setUp();

    const res = await postRaw(proxy.url, '/_ctxshed/metrics', Buffer.alloc(0), { origin: 'http://attacker.example' });

    expect(res.status).toBe(403);
    expect(res.body.toString('utf8')).not.toContain('ctxshed_requests_total');
    expect(await readWire(dir)).toEqual([]);
  });
});

describe('the real clients through the guard', () => {
  interface Head {
    readonly method: string;
    readonly path: string;
    readonly headers: Record<string, string>;
  }

  /** A captured request head (test/fixtures), its Host moved to `port` as the client would name it. */
  async function replayHead(proxy: RunningProxy, file: URL, body: Buffer): Promise<RawResponse> {
    const head = JSON.parse(await fs.readFile(file, 'utf8')) as Head;
    const headers = { ...head.headers, host: `127.0.0.1:${proxy.port}`, 'content-length': String(body.length) };
    return postRaw(proxy.url, head.path, body, headers);
  }

  it('should forward the requests of Claude Code and of Codex with the headers they were captured sending', async () => {
    const { upstream, proxy } = await setUp();
    const claude = new URL('../fixtures/real/', import.meta.url);
    const codex = new URL('../fixtures/real-openai/', import.meta.url);

    const answers = [
      await replayHead(proxy, new URL('headers/main.headers.json', claude), await fs.readFile(new URL('01-main-first.json', claude))),
      await replayHead(proxy, new URL('headers/count-tokens.headers.json', claude), await fs.readFile(new URL('04-count-tokens.json', claude))),
      await replayHead(proxy, new URL('02-first.headers.json', codex), await fs.readFile(new URL('02-first.json', codex))),
    ];

    expect(answers.map((a) => a.status)).not.toContain(403);
    expect(upstream.requests.map((r) => r.path)).toEqual(['/v1/messages?beta=true', '/v1/messages/count_tokens?beta=true', '/v1/responses']);
  });
});
