/**
 * `ctxshed serve` as a service, the built CLI as a real process: its health route answers, and a
 * failed upstream request leaves exactly one line on its stderr, with no query string or key.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startTestApi } from '../support/scripted-api.js';
import { postRaw } from '../../src/scripted/post-raw.js';
import { serve, type Served } from '../reliability/serve-session.js';
import { tempStateDir } from '../support/test-proxy.js';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

async function served(upstream: string): Promise<Served> {
  const s = await serve(['--upstream', upstream, '--state', await tempStateDir(), '--port', '0']);
  cleanups.push(() => s.stop());
  return s;
}

describe('ctxshed serve as a service', () => {
  it('should write one stderr line per failed upstream request, without its query string or its key', async () => {
    const gone = await startTestApi();
    const url = gone.url;
    await gone.close(); // nothing listens there now: connection refused
    const proxy = await served(url);
    const body = Buffer.from('{"model":"m","messages":[{"role":"user","content":"hi"}]}');
    const headers = { 'content-type': 'application/json', 'x-api-key': 'sk-ant-api03-HEADER-SECRET' };

    const first = await postRaw(proxy.url, '/v1/messages?beta=true&key=QUERY-SECRET', body, headers);
    const second = await postRaw(proxy.url, '/v1/messages/count_tokens', body, headers);
    const { stderr } = await proxy.stop();

    expect([first.status, second.status]).toEqual([502, 502]);
    const lines = stderr.split('\n').filter((l) => l.includes('upstream request failed'));
    expect(lines).toEqual([
      expect.stringMatching(/^ctxshed: upstream request failed: POST \/v1\/messages -> 502, UPSTREAM_CONNECT_FAILED after \d+ ms$/),
      expect.stringMatching(/^ctxshed: upstream request failed: POST \/v1\/messages\/count_tokens -> 502, UPSTREAM_CONNECT_FAILED after \d+ ms$/),
    ]);
    expect(stderr).not.toMatch(/SECRET|beta=true/);
  });

  it('should answer GET /_ctxshed/health with ok, and write nothing to stderr for a request the upstream answered', async () => {
    const upstream = await startTestApi();
    cleanups.push(() => upstream.close());
    const proxy = await served(upstream.url);

    const health = await fetch(`${proxy.url}/_ctxshed/health`);
    const ok = await postRaw(proxy.url, '/v1/messages', Buffer.from('{"model":"m","messages":[{"role":"user","content":"hi"}]}'), {
      'content-type': 'application/json',
    });
    const { stderr } = await proxy.stop();

    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ ok: true, stateWritable: true, version: expect.stringMatching(/^\d+\.\d+\.\d+/) });
    expect(ok.status).toBe(200);
    expect(stderr).not.toContain('upstream request failed');
  });
});
