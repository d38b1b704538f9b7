/**
 * `/_ctxshed/metrics` on the real proxy (port 0): answered by the proxy itself, never forwarded,
 * never in the wire log, refused to a Host that does not name loopback, and everything else under
 * `/_ctxshed/` a 404 in the API's error shape.
 */
import fs from 'node:fs/promises';
import http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunningProxy } from '../../src/proxy/start-proxy.js';
import { ScriptedClient } from '../../src/scripted/client.js';
import type { MessagesApi } from '../../src/scripted/messages-api.js';
import { startTestApi } from '../support/scripted-api.js';
import { parseScrape, sumOf } from '../support/prom-text.js';
import { readWire, startTestProxy, tempStateDir, testConfig, waitForWire } from '../support/test-proxy.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

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

interface Answer {
  readonly status: number;
  readonly headers: http.IncomingHttpHeaders;
  readonly text: string;
}

/** One request with exactly this target and Host (Node's default Host is 127.0.0.1:<port>). */
function request(proxy: RunningProxy, method: string, target: string, host?: string, body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = host === undefined ? {} : { host };
    const req = http.request({ host: '127.0.0.1', port: proxy.port, method, path: target, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

function errorOf(answer: Answer): { type: string; error: { type: string; message: string } } {
  return JSON.parse(answer.text) as { type: string; error: { type: string; message: string } };
}

describe('GET /_ctxshed/metrics', () => {
  it('should serve Prometheus text from the proxy itself, with nothing forwarded and nothing in the wire log', async () => {
    const { dir, upstream, proxy } = await setUp();

    const answer = await request(proxy, 'GET', '/_ctxshed/metrics');

    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(answer.headers['cache-control']).toBe('no-store');
    expect(parseScrape(answer.text).types.get('ctxshed_requests_total')).toBe('counter');
    expect(upstream.requests).toEqual([]);
    expect(await readWire(dir)).toEqual([]);
  });

  it("should carry the process's own metrics (resident memory, CPU, event loop lag) beside ctxshed's", async () => {
    const { proxy } = await setUp();

    const scrape = parseScrape((await request(proxy, 'GET', '/_ctxshed/metrics')).text);

    expect(scrape.types.get('process_resident_memory_bytes')).toBe('gauge');
    expect(sumOf(scrape, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(scrape.types.get('process_cpu_seconds_total')).toBe('counter');
    expect(scrape.types.get('nodejs_eventloop_lag_seconds')).toBe('gauge');
  });

  it("should answer to every loopback name with the proxy's port: localhost, 127.0.0.1 and [::1]", async () => {
    const { proxy } = await setUp();

    for (const host of [`localhost:${proxy.port}`, `127.0.0.1:${proxy.port}`, `[::1]:${proxy.port}`]) {
      expect((await request(proxy, 'GET', '/_ctxshed/metrics', host)).status).toBe(200);
    }
  });

  it('should answer a loopback name on any port, as an ssh -L forward to another port passes it (the name stops DNS rebinding, not the port)', async () => {
    const { proxy } = await setUp();

    for (const host of ['localhost', '127.0.0.1', `127.0.0.1:${proxy.port + 1}`]) {
      expect((await request(proxy, 'GET', '/_ctxshed/metrics', host)).status).toBe(200);
    }
  });

  it("should refuse a Host that is not a loopback name (DNS rebinding), in the API's error shape, without forwarding it", async () => {
    const { upstream, proxy } = await setUp();

    for (const host of ['evil.example', `evil.example:${proxy.port}`, '127.0.0.1.nip.io', 'app.localhost']) {
      const answer = await request(proxy, 'GET', '/_ctxshed/metrics', host);
      expect(answer.status).toBe(403);
      expect(errorOf(answer)).toMatchObject({ type: 'error', error: { type: 'permission_error' } });
      expect(answer.text).not.toContain('ctxshed_requests_total');
    }
    expect(upstream.requests).toEqual([]);
  });

  it("should answer any other method or path under /_ctxshed/ with a 404 in the API's error shape, and forward none", async () => {
    const { dir, upstream, proxy } = await setUp();

    const answers = [
      await request(proxy, 'POST', '/_ctxshed/metrics', undefined, '{"messages":[]}'),
      await request(proxy, 'HEAD', '/_ctxshed/metrics'),
      await request(proxy, 'GET', '/_ctxshed/nope'),
      await request(proxy, 'GET', '/_ctxshed/'),
      await request(proxy, 'GET', '/_ctxshed'),
      await request(proxy, 'DELETE', '/_ctxshed/v1/messages'),
      await request(proxy, 'GET', `http://127.0.0.1:${proxy.port}/_ctxshed/other`),
    ];

    expect(answers.map((a) => a.status)).toEqual([404, 404, 404, 404, 404, 404, 404]);
    for (const answer of answers.filter((a) => a.text !== '')) {
      expect(errorOf(answer)).toMatchObject({ type: 'error', error: { type: 'not_found_error' } });
      expect(errorOf(answer).error.message).toContain('ctxshed');
    }
    expect(upstream.requests).toEqual([]);
    expect(await readWire(dir)).toEqual([]);
  });

  it('should count model calls and not its own scrapes', async () => {
    const { dir, upstream, proxy } = await setUp();
    const client = new ScriptedClient(proxy.url);
    cleanups.push(async () => client.close());
    await client.turnOnce();
    await waitForWire(dir, 1);

    await request(proxy, 'GET', '/_ctxshed/metrics');
    await request(proxy, 'GET', '/_ctxshed/metrics');
    const scrape = parseScrape((await request(proxy, 'GET', '/_ctxshed/metrics')).text);

    expect(sumOf(scrape, 'ctxshed_requests_total')).toBe(1);
    expect(sumOf(scrape, 'ctxshed_requests_total', { route: 'messages', status: '200' })).toBe(1);
    expect(upstream.requests).toHaveLength(1);
    expect(await readWire(dir)).toHaveLength(1);
  });

  it('should count a body refused as too large by its route and 413, though the wire log has no line for it', async () => {
    const dir = await tempStateDir();
    const upstream = await startTestApi();
    const proxy = await startTestProxy(dir, testConfig(upstream.url, { maxRequestBytes: 1000 }));
    cleanups.push(
      () => upstream.close(),
      () => proxy.close(),
    );

    const refused = await request(proxy, 'POST', '/v1/messages?beta=true', undefined, 'x'.repeat(5000)).catch(() => undefined);
    const scrape = parseScrape((await request(proxy, 'GET', '/_ctxshed/metrics')).text);

    expect(refused?.status ?? 413).toBe(413); // the client may see a reset instead (read-body.ts)
    expect(sumOf(scrape, 'ctxshed_requests_total', { route: 'messages', status: '413' })).toBe(1);
    expect(sumOf(scrape, 'ctxshed_requests_passed_through_total')).toBe(0);
    expect(upstream.requests).toEqual([]);
    expect(await readWire(dir)).toEqual([]);
  });
});

describe('GET /_ctxshed/health', () => {
  it('should say the proxy serves, its version, uptime and whether its state directory is writable, with nothing forwarded or logged', async () => {
    const { dir, upstream, proxy } = await setUp();
    const pkg = JSON.parse(await fs.readFile(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };

    const answer = await request(proxy, 'GET', '/_ctxshed/health');

    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe('application/json');
    expect(answer.headers['cache-control']).toBe('no-store');
    const health = JSON.parse(answer.text) as Record<string, unknown>;
    expect(health).toEqual({ ok: true, version: pkg.version, uptimeSeconds: expect.any(Number), stateWritable: true });
    expect(health['uptimeSeconds']).toBeGreaterThanOrEqual(0);
    expect(upstream.requests).toEqual([]);
    expect(await readWire(dir)).toEqual([]);
  });

  it('should refuse a Host that is not a loopback name, and a web page, as the metrics are', async () => {
    const { upstream, proxy } = await setUp();

    const rebound = await request(proxy, 'GET', '/_ctxshed/health', `evil.example:${proxy.port}`);

    expect(rebound.status).toBe(403);
    expect(rebound.text).not.toContain('"state"');
    expect(upstream.requests).toEqual([]);
  });
});
