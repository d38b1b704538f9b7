/** Shed spans on Responses API bodies: real Codex bodies, a compaction item, reasoning pairs. */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { applyEpochs } from '../../../src/core/epochs/apply.js';
import { applyInflate } from '../../../src/core/epochs/inflate.js';
import { findSpanStubs } from '../../../src/core/epochs/spans/find-span-stubs.js';
import { fixedRecentBudget } from '../../../src/core/shed/shed-types.js';
import { freezeSpan, planShed } from '../../../src/core/shed/plan-span.js';
import { indexResponses } from '../../../src/core/openai/responses-index.js';
import { readItemFacts } from '../../../src/core/shed/message-facts.js';
import { renderSpanMarkdown } from '../../../src/core/shed/render-span-markdown.js';
import { RESPONSES_API } from '../../../src/core/dialects/responses.js';
import { SPANS } from '../../../src/core/epochs/spans/spans.js';
import type { TranscriptIndex } from '../../../src/core/transcript-index-types.js';
import { validateResponsesInput } from '../../support/responses-validator.js';
import { sha256 } from './shed-bodies.js';
// The kinds' registry names the folders whose files are stored texts (core/stored-files.ts); the core's entry loads it.
import '../../../src/core/epochs/kind-info.js';

const DIR = new URL('../../fixtures/real-openai/', import.meta.url);
const SPANS_DIR = '/home/me/.local/state/ctxshed/spans';
const encoder = new TextEncoder();

function indexOf(body: Uint8Array): TranscriptIndex {
  const outcome = indexResponses(body);
  if (outcome.kind !== 'indexed') throw new Error(outcome.detail);
  return outcome.index;
}

function bodyOf(input: readonly object[]): Uint8Array {
  return encoder.encode(JSON.stringify({ model: 'gpt-test', stream: true, store: false, input }));
}

const developer = { type: 'message', role: 'developer', content: [{ type: 'input_text', text: 'You are Codex.' }] };
const environment = { type: 'message', role: 'user', content: [{ type: 'input_text', text: '<environment_context>cwd</environment_context>' }] };
const prompt = (text: string): object => ({ type: 'message', role: 'user', content: [{ type: 'input_text', text }] });
const reasoning = (n: number): object => ({ type: 'reasoning', id: `rs_${n}`, summary: [], encrypted_content: `gAAAAA${n}` });
const call = (n: number): object => ({ type: 'function_call', id: `fc_${n}`, name: 'exec_command', arguments: `{"cmd":"cat f${n}"}`, call_id: `call_${n}` });
const output = (n: number): object => ({ type: 'function_call_output', call_id: `call_${n}`, output: `contents of f${n} `.repeat(200) });
const said = (text: string): object => ({ type: 'message', role: 'assistant', content: [{ type: 'output_text', text }] });
const turn = (n: number): object[] => [reasoning(n), call(n), output(n)];

function shed(body: Uint8Array, budget = 0): { first: number; last: number; out: Uint8Array } {
  const plan = planShed(body, [], { readFacts: readItemFacts, sha256, policy: fixedRecentBudget(budget), index: indexOf(body) });
  if (plan.kind !== 'planned') throw new Error(`${plan.reason}: ${plan.detail}`);
  const out = applyEpochs(SPANS, body, [freezeSpan(plan.span)], { spansDir: SPANS_DIR, sha256, api: RESPONSES_API });
  if (out.kind !== 'applied') throw new Error(`${out.reason}: ${out.detail}`);
  const found = findSpanStubs(out.body, indexOf(out.body));
  expect(found.map((f) => f.stub.sha256)).toEqual([plan.span.sha256]);
  expect(applyInflate(out.body, [{ found: found[0]!, content: plan.span.text }])).toEqual(body);
  return { first: plan.span.first, last: plan.span.last, out: out.body };
}

describe('shed spans on the Responses API', () => {
  it('should shed the middle of a real Codex body after its leading items, in a body the scripted API accepts', () => {
    const body = new Uint8Array(fs.readFileSync(new URL('07-last.json', DIR)));
    const input = JSON.parse(new TextDecoder().decode(body)).input as Array<Record<string, unknown>>;

    const { first, last, out } = shed(body);

    // The leading items (tools, developer messages, the first user message) stay, as the key reads them.
    expect(first).toBeGreaterThan(input.findIndex((i) => i['role'] === 'user'));
    expect(last).toBeGreaterThanOrEqual(first);
    expect(validateResponsesInput(out)).toEqual([]);
    const stub = JSON.parse(new TextDecoder().decode(out)).input[first];
    expect(stub).toEqual({ role: 'user', content: expect.stringMatching(/^\[ctxshed: shed \d+ earlier messages/) });
  });

  it('should start a span after the last compaction item and never take one', () => {
    const compaction = { type: 'compaction', id: 'cmp_1', encrypted_content: 'gAAAAAcompaction.x' };
    const body = bodyOf([
      developer,
      environment,
      prompt('go'),
      ...turn(1),
      said('ok'),
      compaction,
      prompt('more'),
      ...turn(2),
      ...turn(3),
      ...turn(4),
      said('done'),
    ]);

    const { first, out } = shed(body);

    // Item 7 is the compaction: the span starts right after it.
    expect(first).toBe(8);
    const after = JSON.parse(new TextDecoder().decode(out)).input as object[];
    expect(after.slice(0, 8)).toEqual(JSON.parse(new TextDecoder().decode(body)).input.slice(0, 8));
    expect(after).toContainEqual(compaction);
  });

  it('should refuse a span where only a compaction item lies between the leading items and the window', () => {
    const compaction = { type: 'compaction', id: 'cmp_1', encrypted_content: 'gAAAAAcompaction.x' };
    const body = bodyOf([developer, environment, prompt('go'), ...turn(1), compaction, ...turn(2)]);

    const plan = planShed(body, [], { readFacts: readItemFacts, sha256, policy: fixedRecentBudget(0), index: indexOf(body) });

    expect(plan).toMatchObject({ kind: 'none', reason: 'loaded_tool' });
  });

  it('should keep a reasoning item with its call, and a call with an output answered after other calls', () => {
    // Two parallel calls after one reasoning item (their outputs after both), then the last turn:
    // reasoning 9 goes with its call 10, the window's first item.
    const parallel = [reasoning(1), call(1), call(2), output(1), output(2)];
    const body = bodyOf([developer, environment, prompt('go'), ...parallel, said('mid'), ...turn(3)]);

    const { first, last, out } = shed(body);

    expect([first, last]).toEqual([2, 8]);
    expect(validateResponsesInput(out)).toEqual([]);
  });

  it('should read a Codex prompt, its tools item and a reasoning pair as the span chooser needs them', () => {
    const tools = { type: 'additional_tools', id: 'at_1', role: 'developer', tools: [] };
    const body = bodyOf([tools, developer, environment, prompt('go'), reasoning(1), call(1), output(1)]);

    const facts = readItemFacts(body, indexOf(body));

    expect(facts.map((f) => f.role)).toEqual(['additional_tools', 'system', 'user', 'user', 'assistant', 'assistant', 'user']);
    expect(facts.map((f) => f.prompt)).toEqual([false, false, false, true, false, false, false]);
    expect(facts.map((f) => f.barrier === true)).toEqual([true, false, true, false, false, false, false]);
    expect(facts[4]!.pairsWithNext).toBe(true);
    expect(facts[5]!.toolUseIds).toEqual(['call_1']);
    expect(facts[6]!.toolResultIds).toEqual(['call_1']);
  });

  it("should render a span's items readably: calls, outputs and reasoning summaries", () => {
    const text = encoder.encode(JSON.stringify([prompt('go'), call(1), output(1)]).slice(1, -1));

    const md = renderSpanMarkdown(text, 'a'.repeat(64));

    expect(md).toContain('## 2. function_call');
    expect(md).toContain('tool call `exec_command` (call_id call_1)');
    expect(md).toContain('## 3. function_call_output');
    expect(md).toContain('contents of f1');
  });
});
