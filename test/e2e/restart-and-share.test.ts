import { afterEach, describe, expect, it } from 'vitest';
import type { RunningProxy } from '../../src/proxy/start-proxy.js';
import { listConversations } from '../../src/state/read-conversation.js';
import { layoutPaths } from '../../src/state/layout.js';
import { verifyState } from '../../src/state/verify-state.js';
import type { MessagesApi } from '../../src/scripted/messages-api.js';
import { startTestApi } from '../support/scripted-api.js';
import { isMessagesRequest } from '../../src/scripted/received-request.js';
import { ScriptedClient } from '../../src/scripted/client.js';
import { postRaw } from '../../src/scripted/post-raw.js';
import { runCtxshed, startServe } from '../support/cli-process.js';
import { readWire, startTestProxy, tempStateDir, testConfig, waitForWire } from '../support/test-proxy.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

async function upstreamFor(): Promise<MessagesApi> {
  const upstream = await startTestApi();
  cleanups.push(() => upstream.close());
  return upstream;
}

async function proxyOn(dir: string, upstream: MessagesApi): Promise<RunningProxy> {
  const proxy = await startTestProxy(dir, testConfig(upstream.url));
  cleanups.push(() => proxy.close());
  return proxy;
}

function lastReceived(upstream: MessagesApi): Buffer {
  return upstream.requests.filter(isMessagesRequest).at(-1)!.body;
}

/** Sends the client's current transcript once more through `url`, as a resumed client would. */
async function resend(client: ScriptedClient, url: string): Promise<void> {
  await postRaw(url, '/v1/messages?beta=true', client.body());
}

describe('rescue proxy across restarts and shared state', () => {
  it('should continue with identical bytes after a restart in the middle of a session', async () => {
    const dir = await tempStateDir();
    const upstream = await upstreamFor();
    const first = await proxyOn(dir, upstream);
    const client = new ScriptedClient(first.url);
    for (let i = 0; i < 22; i++) await client.turnOnce();
    await resend(client, first.url);
    const before = lastReceived(upstream);
    await first.close();

    const second = await proxyOn(dir, upstream);
    await resend(client, second.url);

    expect(lastReceived(upstream).equals(before)).toBe(true);
    expect(before.length).toBeLessThan(client.body().length);
  });

  it("should have every request's wire line once stopped right after the last response", async () => {
    // Arrange
    const dir = await tempStateDir();
    const upstream = await upstreamFor();
    const proxy = await proxyOn(dir, upstream);
    const client = new ScriptedClient(proxy.url);
    for (let i = 0; i < 3; i++) await client.turnOnce();

    // Act: stop at once; the wire log batches its lines (state/wire-log.ts) and must write them first.
    await proxy.close();

    // Assert: read once, no waiting.
    expect(await readWire(dir)).toHaveLength(3);
  });

  it('should survive kill -9 of the proxy: verify stays clean and a restart sends the same bytes', async () => {
    const dir = await tempStateDir();
    const upstream = await upstreamFor();
    const args = ['--state', dir, '--upstream', upstream.url, '--window', '20000'];
    const served = await startServe(args);
    const client = new ScriptedClient(served.url);
    for (let i = 0; i < 20; i++) await client.turnOnce();
    await resend(client, served.url);
    const before = lastReceived(upstream);
    served.child.kill('SIGKILL');
    expect((await served.exited).signal).toBe('SIGKILL');

    const verify = await runCtxshed(['verify', '--state', dir]);
    const again = await startServe(args);
    cleanups.push(async () => {
      again.child.kill('SIGTERM');
      await again.exited;
    });
    await resend(client, again.url);

    expect(verify.code).toBe(0);
    expect(lastReceived(upstream).equals(before)).toBe(true);
  });

  it('should stop cleanly on SIGTERM with the wire log flushed', async () => {
    const dir = await tempStateDir();
    const upstream = await upstreamFor();
    const served = await startServe(['--state', dir, '--upstream', upstream.url]);
    const client = new ScriptedClient(served.url);
    await client.turnOnce();

    served.child.kill('SIGTERM');
    const result = await served.exited;

    expect(result.code).toBe(0);
    expect(await waitForWire(dir, 1, 0)).toHaveLength(1);
  });

  it('should let two proxies share one state directory without losing or duplicating an epoch', async () => {
    const dir = await tempStateDir();
    const upstream = await upstreamFor();
    const a = await proxyOn(dir, upstream);
    const b = await proxyOn(dir, upstream);
    const client = new ScriptedClient(a.url);
    for (let i = 0; i < 16; i++) await client.turnOnce();
    // The last reading was under the threshold; this one is over it, and both proxies get it.
    await resend(client, b.url);
    await resend(client, a.url);
    // Both now decide to latch on the next request, sent to both at once: one latches under the
    // lock, the other finds that epoch on disk and applies it instead of latching its own.
    const body = client.body();
    const [ra, rb] = await Promise.all([postRaw(a.url, '/v1/messages', body), postRaw(b.url, '/v1/messages', body)]);

    const received = upstream.requests
      .filter(isMessagesRequest)
      .slice(-2)
      .map((r) => r.body);
    const records = await listConversations(layoutPaths(dir));

    expect([ra.status, rb.status]).toEqual([200, 200]);
    expect(records).toHaveLength(1);
    expect(records[0]!.epochs.map((e) => e.n)).toEqual([1]);
    expect(received[0]!.equals(received[1]!)).toBe(true);
    expect(received[0]!.length).toBeLessThan(body.length);
    expect((await verifyState(dir)).problems).toEqual([]);
    // Both proxies decided to latch; only the one that wrote the epoch says so in the wire log.
    const wire = await waitForWire(dir, 20);
    expect(wire.filter((r) => r['latched'] !== undefined).map((r) => r['latched'])).toEqual([1]);
  });
});
