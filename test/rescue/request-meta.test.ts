import { describe, expect, it } from 'vitest';
import { DEFAULT_ENGINE_SETTINGS, engineSettingsOf } from '../../src/rescue/index.js';
import { readRequestMeta } from '../../src/rescue/request-meta.js';

const body = new Uint8Array(0);

describe('readRequestMeta', () => {
  it('should read the route, window, client headers and an encoding that hides the body', () => {
    const meta = readRequestMeta(
      {
        method: 'POST',
        target: '/v1/messages?beta=true',
        headers: {
          'anthropic-beta': 'x,context-1m-2025-08-07',
          'x-claude-code-agent-id': ['a1', 'a2'],
          'x-claude-code-session-id': 's1',
          'content-encoding': 'br',
        },
        body,
      },
      DEFAULT_ENGINE_SETTINGS,
    );

    expect(meta).toEqual({ route: 'messages', window: 1_000_000, agentId: 'a1', sessionId: 's1', encoding: 'br' });
  });

  it('should take --window over the beta header, and count identity as no encoding', () => {
    const meta = readRequestMeta(
      { method: 'POST', target: '/v1/messages/count_tokens', headers: { 'anthropic-beta': 'context-1m-2025-08-07', 'content-encoding': 'Identity' }, body },
      engineSettingsOf({ window: 50_000 }),
    );

    expect(meta).toMatchObject({ route: 'count_tokens', window: 50_000, encoding: undefined });
  });

  it('should treat anything but a model call as having no route', () => {
    const meta = readRequestMeta({ method: 'GET', target: '/v1/messages', headers: {}, body }, DEFAULT_ENGINE_SETTINGS);

    expect(meta).toMatchObject({ route: undefined, window: 200_000, agentId: undefined });
  });

  it("should read the session-id header, Codex's, on an OpenAI call, and Claude Code's header only on a Messages call", () => {
    const headers = { 'session-id': 'thread-1', 'x-claude-code-session-id': 'cc-1' };

    const responses = readRequestMeta({ method: 'POST', target: '/v1/responses', headers, body }, DEFAULT_ENGINE_SETTINGS);
    const chat = readRequestMeta({ method: 'POST', target: '/v1/chat/completions', headers, body }, DEFAULT_ENGINE_SETTINGS);
    const messages = readRequestMeta({ method: 'POST', target: '/v1/messages', headers, body }, DEFAULT_ENGINE_SETTINGS);

    expect(responses).toMatchObject({ route: 'responses', sessionId: 'thread-1', window: 200_000 });
    expect(chat).toMatchObject({ route: 'chat', sessionId: 'thread-1' });
    expect(messages).toMatchObject({ route: 'messages', sessionId: 'cc-1' });
  });
});

describe('readRequestMeta window', () => {
  const withModel = (model: string): Uint8Array => new TextEncoder().encode(JSON.stringify({ model, messages: [] }));

  it("should take the window of the body's model before the beta header, and --window before both", () => {
    const request = (model: string, beta?: string): Parameters<typeof readRequestMeta>[0] => ({
      method: 'POST',
      target: '/v1/messages',
      headers: beta === undefined ? {} : { 'anthropic-beta': beta },
      body: withModel(model),
    });

    expect(readRequestMeta(request('claude-opus-5-5'), DEFAULT_ENGINE_SETTINGS).window).toBe(1_000_000);
    expect(readRequestMeta(request('claude-sonnet-4-5'), DEFAULT_ENGINE_SETTINGS).window).toBe(200_000);
    expect(readRequestMeta(request('claude-sonnet-4-5', 'context-1m-2025-08-07'), DEFAULT_ENGINE_SETTINGS).window).toBe(1_000_000);
    expect(readRequestMeta(request('claude-opus-5-5'), engineSettingsOf({ window: 200_000 })).window).toBe(200_000);
  });

  it('should measure against the model the API runs: the last `model` key, after `messages` too (issue 26, item 6)', () => {
    const twice = (first: string, last: string): Uint8Array =>
      new TextEncoder().encode(`{"model":${JSON.stringify(first)},"messages":[{"role":"user","content":"hi"}],"model":${JSON.stringify(last)}}`);
    const meta = (b: Uint8Array, target: string) => readRequestMeta({ method: 'POST', target, headers: {}, body: b }, DEFAULT_ENGINE_SETTINGS);

    expect(meta(twice('claude-sonnet-4-5', 'claude-opus-5-5'), '/v1/messages').window).toBe(1_000_000);
    expect(meta(twice('claude-opus-5-5', 'claude-sonnet-4-5'), '/v1/messages').window).toBe(200_000);
    expect(meta(new TextEncoder().encode('{"input":[],"model":"gpt-9","model":"gpt-6.2-sol"}'), '/v1/responses').window).toBe(500_000);
  });
});

describe('readRequestMeta, Claude Code 2.1.332 headers', () => {
  const opus = new TextEncoder().encode('{"model":"claude-opus-5-5","messages":[]}');

  it("should read the request class, and measure a Messages call against CLAUDE_CODE_AUTO_COMPACT_WINDOW when it is under the model's window", () => {
    const meta = readRequestMeta(
      { method: 'POST', target: '/v1/messages', headers: { 'x-claude-code-request-class': 'side_reply' }, body: opus },
      engineSettingsOf({ autoCompactWindow: 400_000 }),
    );

    expect(meta).toMatchObject({ route: 'messages', window: 400_000, requestClass: 'side_reply' });
  });

  it('should let --window win over the variable, and leave a request without the header unclassed', () => {
    const meta = readRequestMeta(
      { method: 'POST', target: '/v1/messages', headers: {}, body: opus },
      engineSettingsOf({ window: 900_000, autoCompactWindow: 400_000 }),
    );

    expect(meta.window).toBe(900_000);
    expect(meta.requestClass).toBeUndefined();
  });
});

describe('readRequestMeta, an OpenAI model', () => {
  const responses = (model: string) => new TextEncoder().encode(`{"model":${JSON.stringify(model)},"input":[]}`);

  it("should measure a Responses call against its model's window from Codex's list, and an unknown model against 200,000", () => {
    const sol = readRequestMeta({ method: 'POST', target: '/v1/responses', headers: {}, body: responses('gpt-6.2-sol') }, DEFAULT_ENGINE_SETTINGS);
    const astra = readRequestMeta({ method: 'POST', target: '/responses', headers: {}, body: responses('gpt-6.2-astra') }, DEFAULT_ENGINE_SETTINGS);
    const unknown = readRequestMeta({ method: 'POST', target: '/v1/responses', headers: {}, body: responses('gpt-9') }, DEFAULT_ENGINE_SETTINGS);

    expect([sol.window, astra.window, unknown.window]).toEqual([500_000, 272_000, 200_000]);
  });

  it('should measure gpt-6.1-sol against 272,000 for a Codex before 0.171.0, read from its user-agent, and 500,000 for 0.171.0', () => {
    const from = (agent: string) =>
      readRequestMeta({ method: 'POST', target: '/v1/responses', headers: { 'user-agent': agent }, body: responses('gpt-6.1-sol') }, DEFAULT_ENGINE_SETTINGS)
        .window;
    expect(from('codex_exec/0.169.0 (Debian 12.0.0; x86_64) unknown (codex_exec; 0.169.0)')).toBe(272_000);
    expect(from('codex_exec/0.171.0 (Debian 12.0.0; x86_64) unknown (codex_exec; 0.171.0)')).toBe(500_000);
    expect(from('some-other-client/1.0')).toBe(500_000);
  });

  it('should let --window win over the table, and ignore CLAUDE_CODE_AUTO_COMPACT_WINDOW', () => {
    const body = responses('gpt-6.2-sol');
    expect(readRequestMeta({ method: 'POST', target: '/v1/responses', headers: {}, body }, engineSettingsOf({ window: 128_000 })).window).toBe(128_000);
    expect(readRequestMeta({ method: 'POST', target: '/v1/responses', headers: {}, body }, engineSettingsOf({ autoCompactWindow: 100_000 })).window).toBe(
      500_000,
    );
  });
});
