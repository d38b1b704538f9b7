/**
 * A body must keep a pace on the real proxy's sockets (issue 41 item 2, body-pace.ts): a
 * drip-feed (a byte every 200 ms after a fast start) is answered 408 `body_too_slow` at the end of
 * its first slow window, and a body that keeps its rate but not its deadline 408 `body_timeout`;
 * each connection is closed and nothing is forwarded. The windows and the deadline are injected
 * short; nothing is asserted about time.
 */
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestApi } from '../support/scripted-api.js';
import { startTestProxy, tempStateDir, testConfig, waitForWire } from '../support/test-proxy.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

/** Declares `declared` bytes, sends `first` at once, then `every` bytes each `everyMs`; resolves with the whole answer once the proxy closes. */
function pacedUpload(port: number, declared: number, first: number, every: number, everyMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let text = '';
    let timer: NodeJS.Timeout | undefined;
    socket.on('data', (d: Buffer) => (text += d.toString('utf8')));
    socket.on('close', () => {
      clearInterval(timer);
      resolve(text);
    });
    socket.on('error', () => undefined); // the proxy may close while a drip is in flight
    socket.once('connect', () => {
      socket.write(`POST /v1/messages HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\ncontent-type: application/json\r\ncontent-length: ${declared}\r\n\r\n`);
      socket.write('{'.padEnd(first, ' '));
      timer = setInterval(() => {
        if (!socket.destroyed) socket.write(' '.repeat(every));
      }, everyMs);
    });
    socket.once('error', reject);
    cleanups.push(() => {
      clearInterval(timer);
      socket.destroy();
    });
  });
}

async function setUp(overrides: Parameters<typeof testConfig>[1]): Promise<{ dir: string; port: number; forwarded: () => number }> {
  const dir = await tempStateDir();
  const upstream = await startTestApi();
  const proxy = await startTestProxy(dir, testConfig(upstream.url, overrides));
  cleanups.push(
    () => upstream.close(),
    () => proxy.close(),
  );
  return { dir, port: proxy.port, forwarded: () => upstream.requests.length };
}

describe('the pace of a body', () => {
  it('should answer a drip-feed 408 body_too_slow and close it, forwarding nothing', async () => {
    const { dir, port, forwarded } = await setUp({ bodyRateWindowMs: 500, bodyMinBytesPerSecond: 10_000, bodyIdleTimeoutMs: 30_000 });

    const text = await pacedUpload(port, 4_000_000, 200_000, 1, 200);

    expect(text).toMatch(/^HTTP\/1\.1 408 /);
    expect(text.toLowerCase()).toContain('connection: close');
    expect(JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4))).toMatchObject({
      type: 'error',
      error: { type: 'timeout_error', message: expect.stringContaining('under 10000 bytes a second') },
    });
    expect(forwarded()).toBe(0);
    expect(await waitForWire(dir, 1)).toEqual([expect.objectContaining({ status: 408, refused: 'body_too_slow' })]);
  });

  it('should answer a body that keeps its rate but not its deadline 408 body_timeout', async () => {
    const { dir, port, forwarded } = await setUp({ bodyRateWindowMs: 500, bodyMinBytesPerSecond: 1_000, bodyDeadlineMs: 1_500, bodyIdleTimeoutMs: 30_000 });

    const text = await pacedUpload(port, 4_000_000, 1_000, 2_000, 100);

    expect(text).toMatch(/^HTTP\/1\.1 408 /);
    expect(text).toContain('did not arrive whole within 1500 ms');
    expect(forwarded()).toBe(0);
    expect(await waitForWire(dir, 1)).toEqual([expect.objectContaining({ status: 408, refused: 'body_timeout' })]);
  });
});
