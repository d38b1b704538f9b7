/**
 * The test dialect (log-dialect.ts) through the real proxy, end to end: registered with its one
 * call, the proxy on port 0 in front of a scripted log API (log-upstream.ts) that refuses a body
 * over its window as the API would. A conversation grows until it latches: the forwarded body has
 * stubs, each stub's original was durable before the upstream saw it, restore gives the text back,
 * the usage that latched was read from the log API's own answers (JSON and SSE), an upstream failure
 * is answered in the log API's error shape, and its too-long refusal leads to the overflow rescue.
 */
import fs from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { elidedTextPath } from '../../src/core/stub-paths.js';
import { registerDialect } from '../../src/core/dialects/registry.js';
import { postRaw, type RawResponse } from '../../src/scripted/post-raw.js';
import { restoreText } from '../../src/restore/restore-text.js';
import { inflateFromState } from '../../src/state/inflate-from-state.js';
import { layoutPaths } from '../../src/state/layout.js';
import { readConversation } from '../../src/state/read-conversation.js';
import { verifyState } from '../../src/state/verify-state.js';
import { filler } from '../core/bodies.js';
import { startTestProxy, tempStateDir, testConfig, waitForWire } from '../support/test-proxy.js';
import { LOG_API } from '../dialect/log-dialect.js';
import { startLogUpstream, tokensOf, type LogUpstream } from '../dialect/log-upstream.js';

const cleanups: Array<() => Promise<void> | void> = [];
beforeEach(() => {
  cleanups.push(registerDialect(LOG_API));
});
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

const SESSION = { 'x-log-session': 'log-session-1' };
const OUTPUT_BYTES = 4000;

/** A log body: the prompt, then a call and its output for each of `outputs`. */
function logBody(outputs: readonly string[], stream: boolean): Buffer {
  const turns: unknown[] = [{ role: 'user', text: 'Tour the project.' }];
  for (const [i, text] of outputs.entries()) turns.push({ role: 'assistant', text: `reading ${i}` }, { role: 'tool', id: `c${i}`, text });
  return Buffer.from(JSON.stringify({ model: 'log-1', ...(stream ? { stream: true } : {}), turns }));
}

/** The sha256 of each stub in a body: the name of the elided file it points at (a stub, or a label's drop stub). */
function stubShas(body: Buffer): string[] {
  return [...body.toString('utf8').matchAll(/\[ctxshed: [^\]]*\/elided\/([0-9a-f]{64})\.txt/g)].map((m) => m[1]!);
}

interface Setup {
  readonly dir: string;
  readonly upstream: LogUpstream;
  readonly send: (body: Buffer) => Promise<RawResponse>;
}

/** The proxy in front of a log API refusing over `limit` tokens; each upstream request notes the stubs whose originals were not yet durable. */
async function setUp(limit: number, threshold: number): Promise<Setup> {
  const dir = await tempStateDir('ctxshed-log-proxy-');
  const elidedDir = layoutPaths(dir).elidedDir;
  const upstream = await startLogUpstream(limit, (body) => stubShas(body).filter((sha) => !fs.existsSync(elidedTextPath(elidedDir, sha))));
  const proxy = await startTestProxy(dir, testConfig(upstream.url, { threshold }));
  cleanups.push(
    () => upstream.close(),
    () => proxy.close(),
    () => fs.promises.rm(dir, { recursive: true, force: true, maxRetries: 5 }),
  );
  return { dir, upstream, send: (body) => postRaw(proxy.url, '/v1/log', body, SESSION) };
}

describe.each([
  ['JSON', false],
  ['SSE', true],
])('the log dialect through the proxy (%s answers)', (_name, stream) => {
  it('should latch on the usage it read: stubs forwarded, originals durable first, restorable, and inflating back', async () => {
    // Arrange: a window of 20,000 tokens, no refusal below it, a threshold of 70%.
    const { dir, upstream, send } = await setUp(20_000, 0.7);
    const outputs: string[] = [];

    // Act: one tool output a turn until a forwarded body carries a stub, then one turn more.
    const statuses: number[] = [];
    let latchedAt = -1;
    for (let i = 0; i < 30 && (latchedAt < 0 || upstream.requests.length === latchedAt + 1); i++) {
      outputs.push(filler(OUTPUT_BYTES, i));
      statuses.push((await send(logBody(outputs, stream))).status);
      if (latchedAt < 0 && stubShas(upstream.requests.at(-1)!.body).length > 0) latchedAt = upstream.requests.length - 1;
    }

    // Assert
    expect(statuses.every((s) => s === 200)).toBe(true);
    expect(latchedAt).toBeGreaterThan(0);
    const latched = upstream.requests[latchedAt]!;
    const next = upstream.requests[latchedAt + 1]!;
    expect(latched.path).toBe('/v1/log');
    expect(upstream.requests.map((r) => r.note)).toEqual(upstream.requests.map(() => []));
    const shas = stubShas(latched.body);
    expect(shas.length).toBeGreaterThan(0);
    expect(latched.body.toString('utf8')).not.toContain(outputs[0]);
    const restored = await restoreText(layoutPaths(dir), shas[0]!);
    expect(restored.kind === 'restored' && Buffer.from(restored.bytes).toString('utf8')).toBe(outputs[0]);
    const client = logBody(outputs.slice(0, latchedAt + 1), stream);
    expect(Buffer.from((await inflateFromState(layoutPaths(dir), latched.body)).body).equals(client)).toBe(true);
    const prefix = latched.body.subarray(0, latched.body.lastIndexOf(']'));
    expect(next.body.subarray(0, prefix.length).equals(prefix)).toBe(true);
    const wire = await waitForWire(dir, latchedAt + 2);
    expect(wire.every((r) => r['route'] === 'log' && r['status'] === 200)).toBe(true);
    expect(wire[latchedAt - 1]).toMatchObject({ usage: { input: tokensOf(upstream.requests[latchedAt - 1]!.body) }, window: 20_000 });
    expect(wire[latchedAt]).toMatchObject({ latched: 1, epochs: 1 });
    const record = await readConversation(layoutPaths(dir), String(wire[latchedAt]!['key']));
    expect(record?.epochs[0]?.trigger).toBe('threshold');
    expect((await verifyState(dir)).problems).toEqual([]);
  });
});

describe('the log dialect through the proxy, when the upstream fails', () => {
  it("should answer a failed upstream request in the log API's error shape", async () => {
    const { send } = await setUp(20_000, 0.7);

    const got = await send(Buffer.from(JSON.stringify({ model: 'log-1', turns: [{ role: 'user', text: 'fail' }] })));

    expect(got.status).toBe(502);
    expect(got.headers['content-type']).toBe('application/json');
    expect(Object.keys(JSON.parse(got.body.toString('utf8')))).toEqual(['log_error']);
  });
});

// A window of 20,000 tokens, an upstream limit of 16,000 and a threshold of 90%: readings never pass
// 80%, so no epoch latches on the threshold and every epoch here is an overflow's.
describe("the log dialect through the proxy, on the log API's too-long refusal", () => {
  const LIMIT = 16_000;

  it('should latch at once and retry once: the client sees only 200s', async () => {
    // Arrange
    const { dir, upstream, send } = await setUp(LIMIT, 0.9);
    const outputs: string[] = [];

    // Act
    const statuses: number[] = [];
    for (let i = 0; i < 24; i++) {
      outputs.push(filler(OUTPUT_BYTES, i));
      statuses.push((await send(logBody(outputs, false))).status);
    }

    // Assert
    expect(statuses.every((s) => s === 200)).toBe(true);
    const wire = await waitForWire(dir, 24);
    const retried = wire.filter((r) => r['retry'] !== undefined);
    expect(retried.length).toBeGreaterThan(0);
    for (const r of retried) {
      expect(r['retry']).toMatchObject({ reason: 'overflow', firstStatus: 400, sent: true, status: 200 });
      expect(Number((r['retry'] as { tokens: number }).tokens)).toBeGreaterThan(LIMIT);
    }
    const refused = upstream.requests.filter((r) => tokensOf(r.body) > LIMIT);
    expect(refused).toHaveLength(retried.length);
    expect(upstream.requests).toHaveLength(24 + retried.length);
    const record = await readConversation(layoutPaths(dir), String(retried[0]!['key']));
    expect(record?.epochs[0]?.trigger).toBe('overflow');
    expect((await verifyState(dir)).problems).toEqual([]);
  });

  it('should give the client the refusal byte for byte when nothing can be freed', async () => {
    const { dir, upstream, send } = await setUp(10, 0.9);

    const got = await send(logBody([], false));

    expect(got.status).toBe(400);
    expect(got.body.toString('utf8')).toBe(`too long: ${tokensOf(upstream.requests[0]!.body)}`);
    expect(upstream.requests).toHaveLength(1);
    const [record] = await waitForWire(dir, 1);
    expect(record).toMatchObject({ route: 'log', status: 400, retry: { reason: 'overflow', firstStatus: 400, sent: false, why: 'nothing_new' } });
  });
});
