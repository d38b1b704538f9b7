/**
 * Heads the real proxy must refuse and never forward (issue 41 item 8), sent as raw bytes, since
 * node's client will not write them: an absolute-form target naming another server, a doubled
 * Host, a Host naming port 99999, and under an owner rule an owner header sent twice (which node
 * joined into one value, `bob, alice`, and the proxy took as an owner).
 */
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunningProxy } from '../../src/proxy/start-proxy.js';
import type { OwnerRule } from '../../src/proxy/owner-rule.js';
import type { MessagesApi } from '../../src/scripted/messages-api.js';
import { startTestApi } from '../support/scripted-api.js';
import { startTestProxy, tempStateDir, testConfig, waitForWire } from '../support/test-proxy.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

async function setUp(ownerRule?: OwnerRule): Promise<{ dir: string; upstream: MessagesApi; proxy: RunningProxy }> {
  const dir = await tempStateDir();
  const upstream = await startTestApi();
  const proxy = await startTestProxy(dir, testConfig(upstream.url), ownerRule === undefined ? {} : { ownerRule });
  cleanups.push(
    () => upstream.close(),
    () => proxy.close(),
  );
  return { dir, upstream, proxy };
}

const BODY = JSON.stringify({ model: 'claude-sonnet-4-5', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] });

/** Writes `head` (lines without the blank line) and a small JSON body; resolves with the status line and the body of the answer. */
function rawRequest(port: number, head: readonly string[], body = BODY): Promise<{ status: string; text: string }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.write(
        `${[...head, 'Content-Type: application/json', `Content-Length: ${Buffer.byteLength(body)}`, 'Connection: close'].join('\r\n')}\r\n\r\n${body}`,
      );
    });
    let got = '';
    socket.on('data', (d: Buffer) => (got += d.toString('utf8')));
    socket.on('error', reject);
    socket.on('close', () => resolve({ status: got.split('\r\n')[0] ?? '', text: got.slice(got.indexOf('\r\n\r\n') + 4) }));
  });
}

describe('the proxy, on a head it will not read one way only', () => {
  it.each([
    [
      'an absolute-form target naming another server',
      (p: number) => ['POST http://evil.example/v1/messages HTTP/1.1', `Host: 127.0.0.1:${p}`, 'x-api-key: k'],
      '421',
      'absolute_target',
    ],
    ['a doubled Host', (p: number) => ['POST /v1/messages HTTP/1.1', `Host: 127.0.0.1:${p}`, 'Host: evil.example', 'x-api-key: k'], '400', 'invalid_host'],
    ['a Host naming port 99999', () => ['POST /v1/messages HTTP/1.1', 'Host: localhost:99999', 'x-api-key: k'], '400', 'invalid_host'],
  ])('should refuse %s and forward nothing', async (_what, head, status, reason) => {
    const { dir, upstream, proxy } = await setUp();

    const answer = await rawRequest(proxy.port, head(proxy.port));

    expect(answer.status).toMatch(new RegExp(`^HTTP/1.1 ${status} `));
    expect(JSON.parse(answer.text)).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
    expect(upstream.requests).toHaveLength(0);
    expect((await waitForWire(dir, 1)).map((r) => r['refused'])).toEqual([reason]);
  });

  it('should still forward the same request with one loopback Host, so the refusals above can fail', async () => {
    const { upstream, proxy } = await setUp();

    const answer = await rawRequest(proxy.port, ['POST /v1/messages HTTP/1.1', `Host: 127.0.0.1:${proxy.port}`, 'x-api-key: k']);

    expect(answer.status).toMatch(/^HTTP\/1.1 200 /);
    expect(upstream.requests).toHaveLength(1);
  });

  it('should answer an owner header sent twice with a 401 under --owner-header, on a model call and on a restore route, forwarding nothing', async () => {
    const { dir, upstream, proxy } = await setUp({ kind: 'header', name: 'X-Team-User' });
    const host = `Host: 127.0.0.1:${proxy.port}`;

    const model = await rawRequest(proxy.port, ['POST /v1/messages HTTP/1.1', host, 'x-api-key: k', 'X-Team-User: bob', 'X-Team-User: alice']);
    const spans = await rawRequest(proxy.port, ['GET /_ctxshed/v1/spans HTTP/1.1', host, 'X-Team-User: bob', 'X-Team-User: alice'], '');
    const once = await rawRequest(proxy.port, ['POST /v1/messages HTTP/1.1', host, 'x-api-key: k', 'X-Team-User: bob']);

    expect([model.status, spans.status]).toEqual(['HTTP/1.1 401 Unauthorized', 'HTTP/1.1 401 Unauthorized']);
    expect(JSON.parse(model.text)).toMatchObject({ error: { type: 'authentication_error' } });
    expect(once.status).toMatch(/^HTTP\/1.1 200 /);
    expect(upstream.requests).toHaveLength(1);
    expect((await waitForWire(dir, 2)).map((r) => r['refused'] ?? null)).toEqual(['no_owner', null]);
  });

  it('should answer x-api-key sent twice with a 401 under --owner-from credential', async () => {
    const { upstream, proxy } = await setUp({ kind: 'credential' });

    const answer = await rawRequest(proxy.port, ['POST /v1/messages HTTP/1.1', `Host: 127.0.0.1:${proxy.port}`, 'x-api-key: k1', 'x-api-key: k2']);

    expect(answer.status).toBe('HTTP/1.1 401 Unauthorized');
    expect(upstream.requests).toHaveLength(0);
  });
});
