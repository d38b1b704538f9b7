import { readdirSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { messageItem, reasoningItem, responsesUsage, startOpenAiUpstream, type OpenAiUpstream } from './responses-upstream.js';
import { refusalBody, validateResponsesInput } from './responses-validator.js';

const user = { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Look around.' }] };
const call = { type: 'function_call', id: 'fc_1', name: 'exec_command', arguments: '{}', call_id: 'c1' };
const output = { type: 'function_call_output', call_id: 'c1', output: 'file list' };
const custom = { type: 'custom_tool_call', id: 'ctc_1', name: 'exec', input: 'x', call_id: 'c2' };
const customOutput = { type: 'custom_tool_call_output', call_id: 'c2', output: 'ok' };
const reasoning = { type: 'reasoning', id: 'rs_1', summary: [], encrypted_content: 'gAAAAAx' };
const stub = { role: 'user', content: '[ctxshed: shed 3 earlier messages]' };

const messagesOf = (input: unknown[], written?: Map<string, string>): string[] =>
  validateResponsesInput(JSON.stringify({ model: 'm', input }), written).map((v) => v.message);

describe('the Responses API pairing rules', () => {
  it('should accept calls answered later, reasoning followed by its call, and a user message anywhere between pairs', () => {
    expect(messagesOf([user, reasoning, call, output, stub, custom, customOutput])).toEqual([]);
  });

  it('should refuse an output with no earlier call, in the API words', () => {
    expect(messagesOf([user, output])).toEqual(['No tool call found for function call output with call_id c1.']);
    expect(messagesOf([user, output, call])).toContain('No tool call found for function call output with call_id c1.');
    expect(messagesOf([user, customOutput])).toEqual(['No tool call found for custom tool call output with call_id c2.']);
  });

  it('should refuse a call with no later output', () => {
    expect(messagesOf([user, call])).toEqual(['No tool output found for function call c1.']);
    expect(messagesOf([user, custom, stub])).toEqual(['No tool output found for custom tool call c2.']);
  });

  it('should refuse a reasoning item without a model item after it', () => {
    const refused = "Item 'rs_1' of type 'reasoning' was provided without its required following item.";
    expect(messagesOf([user, reasoning])).toEqual([refused]);
    expect(messagesOf([user, reasoning, stub, call, output])).toEqual([refused]);
    expect(messagesOf([user, reasoning, { ...reasoning, id: 'rs_2' }, call, output])).toContain(refused);
  });

  it('should tie a reasoning item it wrote to the item it wrote after it, both ways', () => {
    const written = new Map([['rs_1', 'fc_1']]);
    const other = { ...call, id: 'fc_9', call_id: 'c9' };
    expect(messagesOf([user, reasoning, call, output], written)).toEqual([]);
    expect(messagesOf([user, reasoning, other, { ...output, call_id: 'c9' }, call, output], written)).toEqual([
      "Item 'rs_1' of type 'reasoning' was provided without its required following item.",
      "Item 'fc_1' of type 'function_call' was provided without its required 'reasoning' item.",
    ]);
    expect(messagesOf([user, call, output], written)).toEqual(["Item 'fc_1' of type 'function_call' was provided without its required 'reasoning' item."]);
  });

  it('should accept every real Codex body captured', () => {
    const dir = join(import.meta.dirname, '../fixtures/real-openai');
    const bodies = readdirSync(dir).filter((f) => f.endsWith('.json') && !f.endsWith('.headers.json'));
    expect(bodies.length).toBeGreaterThan(3);
    for (const f of bodies) expect(validateResponsesInput(readFileSync(join(dir, f))), f).toEqual([]);
  });
});

const opened: OpenAiUpstream[] = [];
afterEach(async () => {
  while (opened.length > 0) await opened.pop()!.close();
});

function post(url: string, body: unknown): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers: { 'content-type': 'application/json' } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

describe('the scripted Responses API', () => {
  it('should answer 400 as the API does for a broken pair, and remember the reasoning it wrote', async () => {
    const rs = reasoningItem('thinking') as { id: string };
    const msg = messageItem('done') as { id: string };
    const u = await startOpenAiUpstream(() => ({ kind: 'response', output: [rs, msg], usage: responsesUsage(10, 0) }));
    opened.push(u);
    expect((await post(`${u.baseUrl}/responses`, { model: 'm', input: [user] })).status).toBe(200);
    expect((await post(`${u.baseUrl}/responses`, { model: 'm', input: [user, rs, msg, user] })).status).toBe(200);

    const refused = await post(`${u.baseUrl}/responses`, { model: 'm', input: [user, msg, user] });

    expect(refused.status).toBe(400);
    expect(JSON.parse(refused.body)).toEqual({
      error: {
        message: `Item '${msg.id}' of type 'message' was provided without its required 'reasoning' item.`,
        type: 'invalid_request_error',
        param: 'input',
        code: null,
      },
    });
    const compact = await post(`${u.baseUrl}/responses/compact`, { model: 'm', input: [user, output] });
    expect(compact.status).toBe(400);
  });
});

describe('validateResponsesInput, the fields a stub may change', () => {
  const body = (call: Record<string, unknown>) =>
    JSON.stringify({
      input: [
        { ...call, call_id: 'c1' },
        { type: `${String(call['type'])}_output`, call_id: 'c1', output: 'ok' },
      ],
    });

  it("should refuse a function_call's arguments that are not a string, or not the JSON text of an object", () => {
    // Act
    const object = validateResponsesInput(body({ type: 'function_call', name: 'x', arguments: { cmd: 'ls' } }));
    const text = validateResponsesInput(body({ type: 'function_call', name: 'x', arguments: '[ctxshed: moved]' }));

    // Assert
    expect(object.map((v) => [v.rule, v.message])).toEqual([
      ['arguments', "Invalid type for 'input[0].arguments': expected a string, but got an object instead."],
    ]);
    expect(text.map((v) => v.rule)).toEqual(['arguments']);
    expect(JSON.parse(refusalBody(object)!).error).toMatchObject({ param: 'input[0].arguments', code: 'invalid_type' });
  });

  it("should refuse a custom_tool_call's input that is not a string, and take JSON arguments and any string input", () => {
    // Act / Assert
    expect(validateResponsesInput(body({ type: 'custom_tool_call', name: 'x', input: 3 })).map((v) => v.rule)).toEqual(['custom_input']);
    expect(validateResponsesInput(body({ type: 'custom_tool_call', name: 'x', input: '[ctxshed: moved]' }))).toEqual([]);
    expect(validateResponsesInput(body({ type: 'function_call', name: 'x', arguments: '{"cmd":"[ctxshed: moved]"}' }))).toEqual([]);
  });
});
