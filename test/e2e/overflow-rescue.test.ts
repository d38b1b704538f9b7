/**
 * Rescue on overflow, end to end: the real proxy on port 0 in front of the scripted Messages API
 * with a prompt limit (`maxPromptTokens`), which refuses a model call over it with the API's exact
 * 400 "prompt is too long: N tokens > M maximum" (docs/rescue.md, "Rescue on overflow"), in rescue
 * mode and in shed mode (docs/shed.md).
 */
import type { IncomingHttpHeaders } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { indexTranscript } from '../../src/core/messages/transcript-index.js';
import { promptTooLongReply, requestIdOf } from '../../src/scripted/api-error.js';
import { countTokens } from '../../src/scripted/cache-pricing.js';
import { startMessagesApi, type MessagesApi, type MessagesApiOptions } from '../../src/scripted/messages-api.js';
import { postRaw } from '../../src/scripted/post-raw.js';
import { isCountTokensRequest, isMessagesRequest, type ReceivedRequest } from '../../src/scripted/received-request.js';
import { ScriptedClient } from '../../src/scripted/client.js';
import { inflateFromState } from '../../src/state/inflate-from-state.js';
import { validateMessagesRequest } from '../support/messages-validator.js';
import { layoutPaths } from '../../src/state/layout.js';
import { readConversation } from '../../src/state/read-conversation.js';
import { verifyState } from '../../src/state/verify-state.js';
import { parseScrape, sumOf } from '../support/prom-text.js';
import { startTestProxy, tempStateDir, testConfig, waitForWire } from '../support/test-proxy.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

const LIMIT = 16_000;

/** The refusal the API sent for request `req`, as its body's text (its request id is the index's). */
function refusalOf(req: ReceivedRequest, tokens = countTokens(req.body), limit = LIMIT): string {
  return JSON.stringify(promptTooLongReply(tokens, limit, requestIdOf(req.index)).body);
}

// A window of 20,000 tokens, a limit of 16,000 and a threshold of 90%: readings never pass 80%,
// so no epoch latches on the threshold and every epoch here is an overflow's.
async function setUp(
  options: MessagesApiOptions = { maxPromptTokens: LIMIT },
  mode: 'rescue' | 'shed' = 'rescue',
): Promise<{ dir: string; api: MessagesApi; url: string }> {
  const dir = await tempStateDir();
  const api = await startMessagesApi(options);
  const proxy = await startTestProxy(dir, testConfig(api.url, { threshold: 0.9, ...(mode === 'shed' ? { mode } : {}) }));
  cleanups.push(
    () => api.close(),
    () => proxy.close(),
  );
  return { dir, api, url: proxy.url };
}

function client(url: string, stream: boolean): ScriptedClient {
  const c = new ScriptedClient(url, { stream });
  cleanups.push(() => c.close());
  return c;
}

/** End-to-end headers: what a client reads, without the hop-by-hop ones and the date. */
function endToEnd(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  const { date: _d, connection: _c, 'keep-alive': _k, 'transfer-encoding': _t, ...rest } = headers;
  return rest;
}

const refused = (api: MessagesApi): ReceivedRequest[] => api.requests.filter((r) => isMessagesRequest(r) && countTokens(r.body) > LIMIT);

describe.each([false, true])('rescue on overflow (stream: %s)', (stream) => {
  it("should latch at once on the API's refusal and retry once: the client sees only 200s", async () => {
    const { dir, api, url } = await setUp();
    const c = client(url, stream);

    const statuses: number[] = [];
    for (let i = 0; i < 40; i++) statuses.push((await c.turnOnce()).status);

    expect(statuses.every((s) => s === 200)).toBe(true);
    const wire = await waitForWire(dir, 40);
    const retried = wire.filter((r) => r['retry'] !== undefined);
    expect(retried.length).toBeGreaterThanOrEqual(2);
    for (const r of retried) {
      expect(r['retry']).toMatchObject({ reason: 'overflow', firstStatus: 400, limit: LIMIT, sent: true, status: 200 });
      expect(Number((r['retry'] as { tokens: number }).tokens)).toBeGreaterThan(LIMIT);
      expect(r).toMatchObject({ status: 200, latched: expect.any(Number) as unknown });
    }
    // Each refused turn went upstream twice, the refused body then the smaller retry; no other did.
    expect(api.requests.filter(isMessagesRequest)).toHaveLength(40 + retried.length);
    const refusals = refused(api);
    expect(refusals).toHaveLength(retried.length);
    for (const first of refusals) {
      const retry = api.requests[first.index + 1]!;
      expect(retry.body.length).toBeLessThan(first.body.length);
      expect(countTokens(retry.body)).toBeLessThanOrEqual(LIMIT);
    }
    const record = await readConversation(layoutPaths(dir), String(retried[0]!['key']));
    expect(record?.epochs.map((e) => e.trigger)).toEqual(retried.map(() => 'overflow'));
    expect(record?.epochs[0]?.reason).toMatchObject({ window: 20_000, limit: LIMIT, contextTokens: (retried[0]!['retry'] as { tokens: number }).tokens });
    expect((await verifyState(dir)).problems).toEqual([]);
    const scrape = parseScrape(await (await fetch(`${url}/_ctxshed/metrics`)).text());
    expect(sumOf(scrape, 'ctxshed_overflow_retries_total', { outcome: 'retried' })).toBe(retried.length);
    expect(sumOf(scrape, 'ctxshed_epochs_latched_total', { trigger: 'overflow' })).toBe(retried.length);
    expect(sumOf(scrape, 'ctxshed_requests_total', { status: '400' })).toBe(0);
  });

  it('should give the client the original refusal, byte for byte, when nothing can be freed', async () => {
    const { dir, api, url } = await setUp({ maxPromptTokens: 100 });
    const twin = await startMessagesApi({ maxPromptTokens: 100 });
    cleanups.push(() => twin.close());
    const c = client(url, stream);

    const got = await c.send();
    // The same body sent straight to an API like it: what the client would have got without ctxshed.
    const direct = await postRaw(twin.url, '/v1/messages?beta=true', c.sent[0]!, { 'x-api-key': 'sk-ant-test-000', 'anthropic-version': '2023-06-01' });

    expect(got.status).toBe(400);
    expect(got.body.equals(direct.body)).toBe(true);
    expect(endToEnd(got.headers)).toEqual(endToEnd(direct.headers));
    expect(api.requests.filter(isMessagesRequest)).toHaveLength(1);
    const [record] = await waitForWire(dir, 1);
    expect(record).toMatchObject({
      status: 400,
      responseBytes: direct.body.length,
      retry: { reason: 'overflow', firstStatus: 400, sent: false, why: 'nothing_new' },
    });
  });

  it('should give the client the original refusal when the retry is refused too, and keep the epoch', async () => {
    let refuseAll = false;
    // Once told to, the API refuses everything, with a count that makes the epoch look enough.
    const { dir, api, url } = await setUp({
      maxPromptTokens: LIMIT,
      respond: (req) => (refuseAll && isMessagesRequest(req) ? promptTooLongReply(18_000, LIMIT, requestIdOf(req.index)) : undefined),
    });
    const c = client(url, stream);
    for (let i = 0; i < 15; i++) expect((await c.turnOnce()).status).toBe(200);
    refuseAll = true;

    const got = await c.send();

    const [first, retry] = api.requests.slice(-2);
    expect(api.requests.filter(isMessagesRequest)).toHaveLength(17); // the request and its one retry
    expect(retry!.body.length).toBeLessThan(first!.body.length);
    expect(got.status).toBe(400);
    expect(got.body.toString('utf8')).toBe(refusalOf(first!, 18_000));
    const last = (await waitForWire(dir, 16)).at(-1)!;
    expect(last).toMatchObject({ status: 400, latched: 1, retry: { reason: 'overflow', tokens: 18_000, limit: LIMIT, sent: true, status: 400 } });
    const record = await readConversation(layoutPaths(dir), String(last['key']));
    expect(record?.epochs.map((e) => e.trigger)).toEqual(['overflow']);
  });

  it('should never retry count_tokens: its refusal reaches the client unchanged', async () => {
    const { dir, api, url } = await setUp({
      respond: (req) => (isCountTokensRequest(req) ? promptTooLongReply(countTokens(req.body), 100, requestIdOf(req.index)) : undefined),
    });
    const c = client(url, stream);

    const got = await c.send('/v1/messages/count_tokens?beta=true');

    expect(got.status).toBe(400);
    expect(got.body.toString('utf8')).toBe(refusalOf(api.requests[0]!, countTokens(api.requests[0]!.body), 100));
    expect(api.requests.filter(isCountTokensRequest)).toHaveLength(1);
    const [record] = await waitForWire(dir, 1);
    expect(record).toMatchObject({ route: 'count_tokens', status: 400 });
    expect(record!['retry']).toBeUndefined();
  });
});

/** Where a body's head (messages[0]) ends. */
function headEnd(body: Buffer): number {
  const indexed = indexTranscript(body);
  if (indexed.kind !== 'indexed') throw new Error(indexed.detail);
  return indexed.index.messages[0]!.end;
}

describe.each([false, true])('rescue on overflow in shed mode (stream: %s)', (stream) => {
  it("should shed a span at once on the API's refusal and retry once: only 200s, valid bodies, the head unchanged, nothing lost", async () => {
    const { dir, api, url } = await setUp({ maxPromptTokens: LIMIT }, 'shed');
    const c = client(url, stream);

    const statuses: number[] = [];
    for (let i = 0; i < 40; i++) statuses.push((await c.turnOnce()).status);

    expect(statuses.every((s) => s === 200)).toBe(true);
    const wire = await waitForWire(dir, 40);
    const retried = wire.filter((r) => r['retry'] !== undefined);
    expect(retried.length).toBeGreaterThanOrEqual(1);
    for (const r of retried) {
      expect(r['retry']).toMatchObject({ reason: 'overflow', firstStatus: 400, limit: LIMIT, sent: true, status: 200 });
      expect(r).toMatchObject({ status: 200, latched: expect.any(Number) as unknown });
    }
    expect(api.requests.filter(isMessagesRequest)).toHaveLength(40 + retried.length);
    const refusals = refused(api);
    expect(refusals).toHaveLength(retried.length);
    for (const first of refusals) {
      const retry = api.requests[first.index + 1]!;
      expect(retry.body.length).toBeLessThan(first.body.length);
      expect(countTokens(retry.body)).toBeLessThanOrEqual(LIMIT);
      expect(validateMessagesRequest(retry.body)).toEqual([]);
      const head = headEnd(first.body);
      expect(retry.body.subarray(0, head).equals(first.body.subarray(0, head))).toBe(true);
    }
    // Every body that reached the API inflates back to what the client sent.
    const received = api.requests.filter(isMessagesRequest).filter((r) => !refusals.includes(r));
    expect(received).toHaveLength(40);
    const state = layoutPaths(dir);
    for (const [i, r] of received.entries()) expect(Buffer.from((await inflateFromState(state, r.body)).body).equals(c.sent[i]!)).toBe(true);
    const record = await readConversation(state, String(retried[0]!['key']));
    expect(record?.epochs.map((e) => [e.kind, e.trigger])).toEqual(retried.map(() => ['span', 'overflow']));
    for (const e of record!.epochs) {
      expect(e.reason).toMatchObject({ window: 20_000, limit: LIMIT });
      expect(e.gate?.latch).toBe(true);
      // The gate's figures at the refusal's fullness: forced exactly when the burst would not pay back.
      if (e.gate?.forcedAt !== undefined) expect(e.gate.forcedAt).toBeGreaterThan(1);
    }
    expect((await verifyState(dir)).problems).toEqual([]);
    const scrape = parseScrape(await (await fetch(`${url}/_ctxshed/metrics`)).text());
    expect(sumOf(scrape, 'ctxshed_overflow_retries_total', { outcome: 'retried' })).toBe(retried.length);
    expect(sumOf(scrape, 'ctxshed_epochs_latched_total', { trigger: 'overflow' })).toBe(retried.length);
    expect(sumOf(scrape, 'ctxshed_requests_total', { status: '400' })).toBe(0);
  });
});
