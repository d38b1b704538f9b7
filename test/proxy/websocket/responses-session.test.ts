import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { type CreatePlan, ResponsesSession } from '../../../src/proxy/websocket/responses-session.js';

const FIXTURES = new URL('../../fixtures/real-openai-websocket/', import.meta.url);
const fixture = (name: string): string => readFileSync(new URL(name, FIXTURES), 'utf8');

/** What the scripted model answered the first call of the capture with (fixtures README). */
const FIRST_OUTPUT = [
  { type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: 'look' }], encrypted_content: 'gAAAAAxyz' },
  { type: 'function_call', id: 'fc_1', status: 'completed', name: 'exec_command', arguments: '{"cmd":"cat a.txt"}', call_id: 'call_1' },
];

function forwarded(plan: CreatePlan): Extract<CreatePlan, { kind: 'forward' }> {
  if (plan.kind !== 'forward') throw new Error(`expected a forward, got ${plan.kind}`);
  return plan;
}

interface Body {
  input: Array<{ type?: string; role?: string; call_id?: string }>;
  [key: string]: unknown;
}

/** The session driven through the captured messages: the warm-up, then the two model calls. */
function replay(): { second: Body; third: Body } {
  const session = new ResponsesSession();
  const warmup = session.plan(fixture('ws-1.json'));
  if (warmup.kind !== 'warmup') throw new Error('the first message is a warm-up');
  session.completed(String(JSON.parse(fixture('ws-2.json')).previous_response_id), warmup.input, []);
  const second = forwarded(session.plan(fixture('ws-2.json')));
  session.completed('resp_1', second.input ?? [], FIRST_OUTPUT);
  const third = forwarded(session.plan(fixture('ws-3.json')));
  return { second: JSON.parse(second.body.toString('utf8')) as Body, third: JSON.parse(third.body.toString('utf8')) as Body };
}

describe('ResponsesSession, on what the real Codex 0.171.0 sent', () => {
  it('should answer the warm-up (generate: false) itself', () => {
    expect(new ResponsesSession().plan(fixture('ws-1.json'))).toEqual({ kind: 'warmup', input: [] });
  });

  it("should make each model call's body the one Codex's HTTP transport sends: the same keys in the same order", () => {
    const { second, third } = replay();
    const http1 = JSON.parse(fixture('http-1.json')) as Body;
    const http2 = JSON.parse(fixture('http-2.json')) as Body;
    expect(Object.keys(second)).toEqual(Object.keys(http1));
    expect(Object.keys(third)).toEqual(Object.keys(http2));
    expect(second['stream']).toBe(true);
  });

  it('should send the whole input: the items of the HTTP body, in its order, the output items as the API sent them', () => {
    const { second, third } = replay();
    const shape = (b: Body): string[] => b.input.map((i) => `${i.type}/${i.role ?? ''}/${i.call_id ?? ''}`);
    expect(shape(second)).toEqual(shape(JSON.parse(fixture('http-1.json')) as Body));
    expect(shape(third)).toEqual(shape(JSON.parse(fixture('http-2.json')) as Body));
    // The first call's input is the next one's first items, unchanged: the prefix the cache keeps.
    expect(third.input.slice(0, second.input.length)).toEqual(second.input);
    expect(third.input.slice(second.input.length, second.input.length + 2)).toEqual(FIRST_OUTPUT);
  });
});

describe('ResponsesSession', () => {
  const create = (fields: Record<string, unknown>): string => JSON.stringify({ type: 'response.create', model: 'gpt-test', ...fields });

  it('should forward a previous_response_id it did not complete as sent (without its type), marked foreign', () => {
    const session = new ResponsesSession();
    const plan = forwarded(session.plan(create({ stream: true, previous_response_id: 'resp_elsewhere', input: [] })));
    expect(plan.foreign).toBe(true);
    expect(JSON.parse(plan.body.toString('utf8'))).toEqual({ model: 'gpt-test', stream: true, previous_response_id: 'resp_elsewhere', input: [] });
  });

  it('should ask for a stream when the message does not say, since the socket always streams', () => {
    const plan = forwarded(new ResponsesSession().plan(create({ input: [] })));
    expect(JSON.parse(plan.body.toString('utf8'))).toEqual({ model: 'gpt-test', input: [], stream: true });
  });

  it.each([
    ['not JSON', '{', 'invalid_json'],
    ['another client event', JSON.stringify({ type: 'response.append', input: [] }), 'unsupported_event'],
  ])('should refuse %s with an error', (_name, text, code) => {
    expect(new ResponsesSession().plan(text)).toMatchObject({ kind: 'invalid', code });
  });
});
