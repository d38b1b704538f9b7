import fs from 'node:fs/promises';
import http from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ForwardArgs, ForwardResult, HeldResponse } from '../../src/proxy/forward.js';
import { answerHeld, OVERFLOW_HOLD_BACK, type FinalExchange } from '../../src/proxy/overflow-retry.js';
import { engineSettingsOf, EpochEngine, type EngineRequest, type Prepared } from '../../src/rescue/index.js';
import { CLASSIC } from '../support/classic-settings.js';
import type { StateDir } from '../../src/state/layout.js';
import { openStateDir } from '../../src/state/open-state-dir.js';
import { conversation, filler } from '../core/bodies.js';
import { tempStateDir } from '../support/test-proxy.js';
import { closeServer, listen, replyOn, send, type Received } from './harness.js';
import type { Reply } from '../../src/proxy/reply.js';

const BODY = conversation(Array.from({ length: 10 }, (_, i) => filler(4000, i)));
const REQUEST: EngineRequest = { method: 'POST', target: '/v1/messages', headers: {}, body: BODY };
const refusal = (tokens: number, limit: number): string =>
  JSON.stringify({
    type: 'error',
    error: { type: 'invalid_request_error', message: `prompt is too long: ${tokens} tokens > ${limit} maximum` },
    request_id: 'req_first',
  });
const held = (body: string): HeldResponse => ({
  status: 400,
  statusMessage: 'Bad Request',
  headers: { 'content-type': 'application/json', 'request-id': 'req_first' },
  body: Buffer.from(body),
});

let state: StateDir;
let engine: EpochEngine;

beforeEach(async () => {
  state = await openStateDir(await tempStateDir('ctxshed-retry-'));
  engine = new EpochEngine(state, engineSettingsOf({ ...CLASSIC, window: 10_000 }));
});

afterEach(async () => {
  // A conversation's first call writes its preview off the request's path: let it land first.
  await engine.settle();
  await fs.rm(state.root, { recursive: true, force: true, maxRetries: 5 });
});

/**
 * Runs answerHeld inside a real server for one client request, the first attempt held back with
 * `first`; `retry` plays the second forward (it answers the client, or holds back again).
 */
async function run(
  first: HeldResponse,
  retry: (reply: Reply) => ForwardResult,
): Promise<{ got: Received; final: FinalExchange; forwarded: Array<[Prepared, ForwardArgs['holdBack']]> }> {
  const forwarded: Array<[Prepared, ForwardArgs['holdBack']]> = [];
  let final: Promise<FinalExchange> | undefined;
  const server = http.createServer((_req, res) => {
    const reply = replyOn(res);
    final = (async () => {
      const prepared = await engine.prepare(REQUEST);
      const forward = async (p: Prepared, holdBack: ForwardArgs['holdBack']): Promise<ForwardResult> => {
        forwarded.push([p, holdBack]);
        return retry(reply);
      };
      return answerHeld({
        engine,
        request: REQUEST,
        prepared,
        first: { status: 0, bytesOut: 0, timings: { totalMs: 1 }, held: first },
        reply,
        forward,
      });
    })();
  });
  const url = await listen(server);
  try {
    const got = await send(url, { method: 'POST', body: Buffer.from('{}') });
    return { got, final: await final!, forwarded };
  } finally {
    await closeServer(server);
  }
}

const answered = (reply: Reply): ForwardResult => {
  reply.answerBytes(200, { 'content-type': 'application/json' }, Buffer.from('{"ok":true}'));
  return { status: 200, bytesOut: 11, timings: { totalMs: 1 } };
};

describe('answerHeld', () => {
  it("should retry once with a smaller body when the refusal can be rescued, and give the client the retry's answer", async () => {
    const { got, final, forwarded } = await run(held(refusal(12_000, 10_000)), answered);

    expect(got.status).toBe(200);
    expect(got.body.toString()).toBe('{"ok":true}');
    expect(forwarded).toHaveLength(1);
    expect(forwarded[0]![0]).toMatchObject({ latched: 1, rescued: 4 });
    expect(forwarded[0]![1]).toEqual(OVERFLOW_HOLD_BACK);
    expect(final).toMatchObject({
      status: 200,
      responseBytes: 11,
      retry: { reason: 'overflow', firstStatus: 400, tokens: 12_000, limit: 10_000, sent: true, status: 200 },
    });
  });

  it('should relay the original when nothing can be freed, naming why', async () => {
    const body = refusal(90_000, 10_000);

    const { got, final, forwarded } = await run(held(body), answered);

    expect(forwarded).toEqual([]);
    expect(got.status).toBe(400);
    expect(got.headers['request-id']).toBe('req_first');
    expect(got.body.toString()).toBe(body);
    expect(final).toMatchObject({ status: 400, responseBytes: body.length, retry: { sent: false, why: 'not_enough' } });
  });

  it('should relay the original when the retry is refused too', async () => {
    const body = refusal(12_000, 10_000);
    const second = held(refusal(9_000, 10_000));

    const { got, final, forwarded } = await run(held(body), () => ({ status: 0, bytesOut: 0, timings: { totalMs: 1 }, held: second }));

    expect(forwarded).toHaveLength(1);
    expect(got.status).toBe(400);
    expect(got.body.toString()).toBe(body);
    expect(final).toMatchObject({ status: 400, retry: { sent: true, status: 400 } });
    expect(final.prepared).toMatchObject({ outcome: 'rewritten', latched: 1 });
  });

  it('should relay any other held 400 as it was, with no retry', async () => {
    const body = JSON.stringify({ type: 'error', error: { type: 'invalid_request_error', message: 'max_tokens: Field required' } });

    const { got, final, forwarded } = await run(held(body), answered);

    expect(forwarded).toEqual([]);
    expect(got.body.toString()).toBe(body);
    expect(final.retry).toBeUndefined();
  });
});
