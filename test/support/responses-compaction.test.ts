import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { compactionItem } from './responses-compaction.js';
import { startOpenAiUpstream, type OpenAiUpstream } from './responses-upstream.js';

const opened: OpenAiUpstream[] = [];
afterEach(async () => {
  while (opened.length > 0) await opened.pop()!.close();
});

async function upstream(): Promise<OpenAiUpstream> {
  const u = await startOpenAiUpstream(() => ({ kind: 'raw', status: 200, body: '{"from":"responder"}' }));
  opened.push(u);
  return u;
}

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

const developer = { type: 'message', role: 'developer', content: [{ type: 'input_text', text: 'Be brief.' }] };
const user = { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Look around.' }] };
const call = { type: 'function_call', name: 'exec_command', arguments: '{}', call_id: 'c1' };
const output = { type: 'function_call_output', call_id: 'c1', output: 'file list' };

describe('scripted remote compaction', () => {
  it('should answer /responses/compact with the user messages and one compaction item, as a response.compaction object', async () => {
    const u = await upstream();
    const body = { model: 'gpt-test', input: [developer, user, call, output] };

    const reply = await post(`${u.baseUrl}/responses/compact`, body);

    expect(reply.status).toBe(200);
    const parsed = JSON.parse(reply.body) as Record<string, unknown>;
    expect(parsed['object']).toBe('response.compaction');
    expect(parsed['output']).toEqual([user, compactionItem(u.requests[0]!.body)]);
  });

  it('should answer a streamed request ending in compaction_trigger with exactly one compaction output item', async () => {
    const u = await upstream();

    const reply = await post(`${u.baseUrl}/responses`, { model: 'gpt-test', stream: true, input: [developer, user, { type: 'compaction_trigger' }] });

    const added = reply.body.split('\n').filter((l) => l.startsWith('data: ') && l.includes('"response.output_item.added"'));
    expect(added).toHaveLength(1);
    expect((JSON.parse(added[0]!.slice(6)) as { item: unknown }).item).toEqual(compactionItem(u.requests[0]!.body));
  });

  it('should refuse a compaction item it did not write, and a compact request without an input array', async () => {
    const u = await upstream();
    const forged = { type: 'compaction', id: 'cmp_x', encrypted_content: 'gAAAAAtampered' };

    const sentBack = await post(`${u.baseUrl}/responses`, { model: 'gpt-test', input: [developer, user, forged] });
    const noInput = await post(`${u.baseUrl}/responses/compact`, { model: 'gpt-test', input: 'hi' });
    const intact = await post(`${u.baseUrl}/responses`, { model: 'gpt-test', input: [developer, user, compactionItem(new Uint8Array([1]))] });

    expect(sentBack.status).toBe(400);
    expect(noInput.status).toBe(400);
    expect(intact).toEqual({ status: 200, body: '{"from":"responder"}' });
  });
});
