import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { validateMessagesRequest } from './messages-validator.js';

const use = (id: string) => ({ type: 'tool_use', id, name: 'Read', input: { file_path: '/a' } });
const result = (id: string) => ({ type: 'tool_result', tool_use_id: id, content: 'ok' });
const body = (messages: unknown[]) => JSON.stringify({ model: 'm', messages });
const rules = (messages: unknown[]) => validateMessagesRequest(body(messages)).map((v) => v.rule);

describe('validateMessagesRequest', () => {
  it('should accept a tool loop with a reminder after the results and a final prompt', () => {
    const messages = [
      { role: 'user', content: 'Read /a' },
      { role: 'assistant', content: [{ type: 'thinking', thinking: 't', signature: 's' }, use('t1'), use('t2')] },
      { role: 'user', content: [result('t1'), result('t2'), { type: 'text', text: '<system-reminder>x</system-reminder>' }] },
      { role: 'assistant', content: 'Done.' },
      { role: 'user', content: 'Thanks' },
    ];

    expect(validateMessagesRequest(body(messages))).toEqual([]);
  });

  it('should accept consecutive user messages, which the API combines into one turn', () => {
    expect(
      rules([
        { role: 'user', content: 'a' },
        { role: 'user', content: 'b' },
        { role: 'assistant', content: 'c' },
      ]),
    ).toEqual([]);
  });

  it('should refuse bodies that are not a request with messages', () => {
    expect(validateMessagesRequest('{')[0]!.rule).toBe('json');
    expect(validateMessagesRequest(new Uint8Array([0xff]))[0]!.rule).toBe('json');
    expect(validateMessagesRequest('{"messages":{}}')[0]!.rule).toBe('messages');
    expect(validateMessagesRequest('{"messages":[]}')[0]!.rule).toBe('messages');
  });

  it('should refuse a first message that is not the user', () => {
    expect(
      rules([
        { role: 'assistant', content: 'hi' },
        { role: 'user', content: 'x' },
      ]),
    ).toContain('first_user');
  });

  it('should refuse unknown roles and contents', () => {
    expect(
      rules([
        { role: 'user', content: 'a' },
        { role: 'tool', content: 'b' },
      ]),
    ).toContain('role');
    expect(rules([{ role: 'user', content: 7 }])).toContain('content');
    expect(rules([{ role: 'user', content: ['x'] }])).toContain('content');
    expect(rules(['x'])).toContain('role');
  });

  it('should refuse empty content except on the final assistant message', () => {
    expect(rules([{ role: 'user', content: '' }])).toContain('non_empty');
    expect(
      rules([
        { role: 'user', content: 'a' },
        { role: 'assistant', content: [] },
        { role: 'user', content: 'b' },
      ]),
    ).toContain('non_empty');
    expect(
      rules([
        { role: 'user', content: 'a' },
        { role: 'assistant', content: '' },
      ]),
    ).toEqual([]);
  });

  it('should refuse text blocks without non-whitespace text, in messages and in tool results', () => {
    expect(rules([{ role: 'user', content: [{ type: 'text', text: ' \n' }] }])).toContain('text');
    const nested = { type: 'tool_result', tool_use_id: 't1', content: [{ type: 'text', text: '' }] };
    expect(
      rules([
        { role: 'user', content: 'a' },
        { role: 'assistant', content: [use('t1')] },
        { role: 'user', content: [nested] },
      ]),
    ).toContain('text');
  });

  it('should place system messages after a user turn and before an assistant turn or the end', () => {
    const ok = [
      { role: 'user', content: 'a' },
      { role: 'system', content: 's' },
      { role: 'system', content: 't' },
      { role: 'assistant', content: 'b' },
    ];
    expect(rules(ok)).toEqual([]);
    expect(
      rules([
        { role: 'user', content: 'a' },
        { role: 'system', content: 's' },
      ]),
    ).toEqual([]);
    expect(
      rules([
        { role: 'user', content: 'a' },
        { role: 'assistant', content: 'b' },
        { role: 'system', content: 's' },
        { role: 'assistant', content: 'c' },
      ]),
    ).toContain('system_placement');
    expect(
      rules([
        { role: 'user', content: 'a' },
        { role: 'system', content: 's' },
        { role: 'user', content: 'c' },
      ]),
    ).toContain('system_placement');
    const server = { role: 'assistant', content: [{ type: 'server_tool_use', id: 'srv1', name: 'web_search', input: {} }] };
    expect(rules([{ role: 'user', content: 'a' }, server, { role: 'system', content: 's' }, { role: 'assistant', content: 'c' }])).toEqual([]);
  });

  it('should refuse a tool_use not answered at the start of the next message', () => {
    const ask = { role: 'assistant', content: [use('t1')] };
    expect(rules([{ role: 'user', content: 'a' }, ask])).toContain('tool_use_answered');
    expect(rules([{ role: 'user', content: 'a' }, ask, { role: 'user', content: 'no result' }])).toContain('tool_use_answered');
    const late = { role: 'user', content: [{ type: 'text', text: 'first' }, result('t1')] };
    expect(rules([{ role: 'user', content: 'a' }, ask, late])).toContain('tool_use_answered');
    const apart = [{ role: 'user', content: 'a' }, ask, { role: 'user', content: 'between' }, { role: 'user', content: [result('t1')] }];
    expect(rules(apart)).toEqual(expect.arrayContaining(['tool_use_answered', 'tool_result_paired']));
  });

  it('should refuse a tool_result whose tool_use is not in the previous message', () => {
    expect(rules([{ role: 'user', content: [result('t9')] }])).toContain('tool_result_paired');
    expect(
      rules([
        { role: 'user', content: 'a' },
        { role: 'assistant', content: [use('t1')] },
        { role: 'user', content: [result('t1'), result('t2')] },
      ]),
    ).toContain('tool_result_paired');
  });

  it('should refuse tool blocks from the wrong role and repeated tool_use ids', () => {
    expect(rules([{ role: 'user', content: [use('t1')] }])).toContain('tool_use_role');
    const twice = [
      { role: 'user', content: 'a' },
      { role: 'assistant', content: [use('t1')] },
      { role: 'user', content: [result('t1')] },
      { role: 'assistant', content: [use('t1')] },
      { role: 'user', content: [result('t1')] },
    ];
    expect(rules(twice)).toContain('unique_ids');
    expect(
      rules([
        { role: 'user', content: 'a' },
        { role: 'assistant', content: [result('t1')] },
      ]),
    ).toContain('tool_result_role');
  });

  it('should accept every real Claude Code request body captured in test/fixtures/real', () => {
    const dir = new URL('../fixtures/real/', import.meta.url);
    const names = fs.readdirSync(dir).filter((name) => name.endsWith('.json'));

    expect(names.length).toBeGreaterThan(0);
    for (const name of names) expect({ name, violations: validateMessagesRequest(fs.readFileSync(new URL(name, dir))) }).toEqual({ name, violations: [] });
  });
});
