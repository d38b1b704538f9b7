import http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { CHAT_API } from '../../src/core/dialects/chat.js';
import { MESSAGES_API } from '../../src/core/dialects/messages.js';
import { RESPONSES_API } from '../../src/core/dialects/responses.js';
import { apiErrorBody, errorShapeOf, sendApiError, shapedErrorBody } from '../../src/proxy/api-error.js';
import { closeServer, listen, replyOn, send } from './harness.js';

describe('apiErrorBody', () => {
  it("should build the Messages API's error shape", () => {
    const body = apiErrorBody('api_error', 'ctxshed: upstream unreachable: "quoted" \u2713');

    expect(JSON.parse(body.toString('utf8'))).toEqual({
      type: 'error',
      error: { type: 'api_error', message: 'ctxshed: upstream unreachable: "quoted" \u2713' },
    });
  });
});

describe("the OpenAI dialects' error body", () => {
  it("should build the OpenAI APIs' error shape, saying ctxshed once", () => {
    const error = { anthropicType: 'invalid_request_error', openAiType: 'invalid_request_error', code: 'foreign_host', message: 'refused: x' };
    const body = shapedErrorBody(RESPONSES_API, error);

    expect(JSON.parse(body.toString('utf8'))).toEqual({
      error: { message: 'ctxshed: refused: x', type: 'invalid_request_error', param: null, code: 'foreign_host' },
    });
  });
});

describe('errorShapeOf', () => {
  it.each([
    ['/v1/messages?beta=true', MESSAGES_API],
    ['/v1/messages/count_tokens', MESSAGES_API],
    ['/v1/models', MESSAGES_API],
    ['/', MESSAGES_API],
    ['/v1/responses', RESPONSES_API],
    ['/openai/v1/responses?x=1', RESPONSES_API],
    ['/v1/responses/resp_1/input_items', RESPONSES_API],
    ['/v1/chat/completions', CHAT_API],
  ])("should give %s its dialect's shape", (target, dialect) => {
    expect(errorShapeOf(target)).toBe(dialect);
  });
});

describe('shapedErrorBody', () => {
  const error = { anthropicType: 'permission_error', openAiType: 'invalid_request_error', code: 'browser_origin', message: 'refused' };

  it('should use the Messages type in the Anthropic shape and the OpenAI type and code in the OpenAI one', () => {
    expect(JSON.parse(shapedErrorBody(MESSAGES_API, error).toString('utf8'))).toEqual({
      type: 'error',
      error: { type: 'permission_error', message: 'ctxshed: refused' },
    });
    expect(JSON.parse(shapedErrorBody(CHAT_API, error).toString('utf8'))).toEqual({
      error: { message: 'ctxshed: refused', type: 'invalid_request_error', param: null, code: 'browser_origin' },
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
      returned.push(sendApiError(replyOn(res), 502, 'api_error', 'ctxshed: x: y'));
    });
    const url = await listen(server);

    const got = await send(url);

    expect(got.status).toBe(502);
    expect(got.headers['content-type']).toBe('application/json');
    expect(Number(got.headers['content-length'])).toBe(got.body.length);
    expect(JSON.parse(got.body.toString())).toEqual({ type: 'error', error: { type: 'api_error', message: 'ctxshed: x: y' } });
    expect(returned).toEqual([true]);
  });

  it('should send nothing and return false once an answer was given', async () => {
    const returned: boolean[] = [];
    server = http.createServer((_req, res) => {
      const reply = replyOn(res);
      reply.answerBytes(200, { 'content-type': 'text/plain' }, Buffer.from('partial'));
      returned.push(sendApiError(reply, 502, 'api_error', 'too late'));
    });
    const url = await listen(server);

    const got = await send(url);

    expect(got.status).toBe(200);
    expect(got.body.toString()).toBe('partial');
    expect(returned).toEqual([false]);
  });
});
