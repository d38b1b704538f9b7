import http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { apiErrorBody, sendApiError } from '../../src/proxy/api-error.js';
import { closeServer, listen, send } from './harness.js';

describe('apiErrorBody', () => {
  it("should build the Messages API's error shape", () => {
    const body = apiErrorBody('api_error', 'ctxshed: upstream unreachable: "quoted" \u2713');

    expect(JSON.parse(body.toString('utf8'))).toEqual({
      type: 'error',
      error: { type: 'api_error', message: 'ctxshed: upstream unreachable: "quoted" \u2713' },
    });
  });
});

describe('sendApiError', () => {
  let server: http.Server | undefined;
  afterEach(async () => {
    if (server !== undefined) await closeServer(server);
    server = undefined;
  });

  it('should answer with the status, a JSON content-type and an exact content-length', async () => {
    const returned: boolean[] = [];
    server = http.createServer((_req, res) => {
      returned.push(sendApiError(res, 502, 'api_error', 'ctxshed: x: y'));
    });
    const url = await listen(server);

    const got = await send(url);

    expect(got.status).toBe(502);
    expect(got.headers['content-type']).toBe('application/json');
    expect(Number(got.headers['content-length'])).toBe(got.body.length);
    expect(JSON.parse(got.body.toString())).toEqual({ type: 'error', error: { type: 'api_error', message: 'ctxshed: x: y' } });
    expect(returned).toEqual([true]);
  });

  it('should send nothing and return false once headers are out', async () => {
    const returned: boolean[] = [];
    server = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('partial');
      returned.push(sendApiError(res, 502, 'api_error', 'too late'));
      res.end();
    });
    const url = await listen(server);

    const got = await send(url);

    expect(got.status).toBe(200);
    expect(got.body.toString()).toBe('partial');
    expect(returned).toEqual([false]);
  });
});
