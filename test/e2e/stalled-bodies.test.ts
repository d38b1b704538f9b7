/**
 * Stalled and oversized uploads on the real proxy (port 0, real sockets): a body that stalls is
 * answered 408 and its connection closed; the body bytes held across connections are capped, and
 * one over the cap is answered 429. The timeout is injected short (bodyIdleTimeoutMs), never timed.
 */
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunningProxy } from '../../src/proxy/start-proxy.js';
import type { MessagesApi } from '../../src/scripted/messages-api.js';
import { startTestApi } from '../support/scripted-api.js';
import { startTestProxy, tempStateDir, testConfig, waitForWire } from '../support/test-proxy.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

async function setUp(overrides: Parameters<typeof testConfig>[1]): Promise<{ dir: string; upstream: MessagesApi; proxy: RunningProxy }> {
  const dir = await tempStateDir();
  const upstream = await startTestApi();
  const proxy = await startTestProxy(dir, testConfig(upstream.url, overrides));
  cleanups.push(
    () => upstream.close(),
    () => proxy.close(),
  );
  return { dir, upstream, proxy };
}

/** An upload that declares `declared` bytes, sends `sent` of them and stalls; resolves once they are written. */
function stalledUpload(port: number, declared: number, sent: number, path = '/v1/messages'): Promise<{ socket: net.Socket; answer: Promise<string> }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let text = '';
    // The whole answer, once the proxy closes the connection.
    const answer = new Promise<string>((done) => {
      socket.on('data', (d: Buffer) => (text += d.toString('utf8')));
      socket.on('close', () => done(text));
    });
    cleanups.push(() => void socket.destroy());
    socket.once('error', reject);
    socket.once('connect', () => {
      const head = `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\ncontent-type: application/json\r\ncontent-length: ${declared}\r\n\r\n`;
      socket.write(head + '{'.padEnd(sent, ' '), () => resolve({ socket, answer }));
    });
  });
}

describe('a stalled upload', () => {
  it('should be answered 408 in the API error shape and its connection closed, with nothing forwarded and a closed reason logged', async () => {
    const { dir, upstream, proxy } = await setUp({ bodyIdleTimeoutMs: 100 });

    const { answer } = await stalledUpload(proxy.port, 1_000_000, 10_000);
    const text = await answer; // resolves only when the proxy closes the connection

    expect(text).toMatch(/^HTTP\/1\.1 408 /);
    expect(text.toLowerCase()).toContain('connection: close');
    expect(JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4))).toMatchObject({ type: 'error', error: { type: 'timeout_error' } });
    expect(upstream.requests).toEqual([]);
    expect(await waitForWire(dir, 1)).toEqual([expect.objectContaining({ status: 408, refused: 'body_timeout', route: 'messages' })]);
  });

  it('should answer on the OpenAI routes in their error shape', async () => {
    const { proxy } = await setUp({ bodyIdleTimeoutMs: 100 });

    const { answer } = await stalledUpload(proxy.port, 1_000_000, 10_000, '/v1/responses');
    const text = await answer;

    expect(text).toMatch(/^HTTP\/1\.1 408 /);
    expect(JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4))).toMatchObject({ error: { code: 'body_timeout' } });
  });
});

describe('the body bytes in flight across connections', () => {
  it('should answer an upload that would pass the cap with a 429 and retry-after, and hold no more than the cap', async () => {
    const { dir, upstream, proxy } = await setUp({ bodyIdleTimeoutMs: 300, maxBodyBytesInFlight: 1_000_000 });

    // Arrange: the first upload holds 700 KB of the 1 MB; the second would take 700 KB more.
    const first = await stalledUpload(proxy.port, 800_000, 700_000);
    const second = await stalledUpload(proxy.port, 800_000, 700_000);
    const [a, b] = await Promise.all([first.answer, second.answer]);

    // Assert: whichever the proxy read first was held (then timed out); the other was refused at the cap.
    const statuses = [a, b].map((t) => t.slice(9, 12)).sort();
    expect(statuses).toEqual(['408', '429']);
    const refused = [a, b].find((t) => t.startsWith('HTTP/1.1 429'))!;
    expect(refused.toLowerCase()).toContain('retry-after: 1');
    expect(JSON.parse(refused.slice(refused.indexOf('\r\n\r\n') + 4))).toMatchObject({ type: 'error', error: { type: 'rate_limit_error' } });
    expect(upstream.requests).toEqual([]);
    const reasons = (await waitForWire(dir, 2)).map((r) => r['refused']).sort();
    expect(reasons).toEqual(['body_budget', 'body_timeout']);
  });
});
