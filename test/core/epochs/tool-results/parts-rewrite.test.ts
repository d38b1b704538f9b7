import { describe, expect, it } from 'vitest';
import { applyInflate, findPartStubs, findStubs, restoredContent } from '../../../../src/core/epochs/inflate.js';
import { CHAT_API } from '../../../../src/core/dialects/chat.js';
import { checkRewrite } from '../../../../src/core/epochs/tool-results/check-tool-results.js';
import { MESSAGES_API } from '../../../../src/core/dialects/messages.js';
import { planElision, type PlannedBlock } from '../../../../src/core/plan-elision.js';
import { planParts } from '../../../../src/core/epochs/tool-results/plan-parts.js';
import type { ApiDialect } from '../../../../src/core/dialects/dialect.js';
import type { FrozenBlock } from '../../../../src/core/epoch-types.js';
import { RESPONSES_API } from '../../../../src/core/dialects/responses.js';
import { rewriteRequest, TOOL_RESULTS } from '../../../../src/core/epochs/tool-results/tool-results.js';
import { fromUtf8, sha256, utf8 } from '../../bodies.js';
import { chatDeepBody, DEEP_POLICY, messagesDeepBody, responsesDeepBody } from '../../deep-bodies.js';

const DIR = '/state/elided';

function indexed(api: ApiDialect, body: Uint8Array) {
  const outcome = api.index(body);
  if (outcome.kind !== 'indexed') throw new Error(outcome.reason);
  return outcome.index;
}

function planned(api: ApiDialect, body: Uint8Array): PlannedBlock[] {
  const index = indexed(api, body);
  return [
    ...planElision(body, index, DEEP_POLICY, sha256),
    ...planParts({ body, index, policy: DEEP_POLICY, readSites: api.partSites, readCalls: api.calls, elidedDir: DIR }, sha256),
  ];
}

function frozenOf(plan: readonly PlannedBlock[]): FrozenBlock[] {
  return plan.map(({ text: _t, raw: _r, ...frozen }) => frozen);
}

/** The body rebuilt from a rewrite and the planned files alone. */
function inflated(api: ApiDialect, out: Uint8Array, plan: readonly PlannedBlock[]): Uint8Array {
  const files = new Map(plan.flatMap((p) => [[`${p.sha256}.txt`, p.text] as const, ...(p.raw === undefined ? [] : [[`${p.rawSha256}.json`, p.raw] as const])]));
  const index = indexed(api, out);
  const parts = findPartStubs(out, index, frozenOf(plan)).map((f) => ({
    found: f,
    content: restoredContent(f.part, files.get(`${f.part.sha256}.txt`)!, files.get(`${f.part.rawSha256}.json`)),
  }));
  const results = findStubs(out, index).map((f) => ({
    found: f,
    content: restoredContent(f.stub, files.get(`${f.stub.sha256}.txt`)!, files.get(`${f.stub.rawSha256}.json`)),
  }));
  return applyInflate(out, [...parts, ...results]);
}

describe('the deeper cut in a rewrite', () => {
  it.each([
    ['Messages', MESSAGES_API, messagesDeepBody()],
    ['Messages, a string kept as its exact bytes', MESSAGES_API, utf8(fromUtf8(messagesDeepBody({ escaped: true })).replace('two/é', 'two\\/\\u00e9'))],
    ['Responses', RESPONSES_API, responsesDeepBody()],
    ['Chat Completions', CHAT_API, chatDeepBody()],
  ])('should stub every planned part and tool result in %s, and inflate back to the client body byte for byte', (_name, api, body) => {
    // Arrange
    const plan = planned(api, body);

    // Act
    const outcome = rewriteRequest(body, frozenOf(plan), { elidedDir: DIR, sha256, api });

    // Assert
    if (outcome.kind !== 'applied') throw new Error(`${outcome.reason}: ${outcome.detail}`);
    expect(outcome.stubs).toBe(plan.length);
    expect(inflated(api, outcome.body, plan)).toEqual(body);
  });

  it('should keep a Messages tool_use input an object with every key, each large string a stub naming the call', () => {
    // Arrange
    const body = messagesDeepBody();
    const plan = planned(MESSAGES_API, body);

    // Act
    const outcome = rewriteRequest(body, frozenOf(plan), { elidedDir: DIR, sha256 });

    // Assert
    const messages = JSON.parse(fromUtf8(outcome.body)).messages;
    const write = messages[1].content[2];
    expect(Object.keys(write.input)).toEqual(['file_path', 'content']);
    expect(write.input.file_path).toBe('/p/a.ts');
    const sha = plan.find((p) => p.tool === 'Write')!.sha256;
    expect(write.input.content).toBe(`[ctxshed: tool input moved out of the context; the content of Write "/p/a.ts", 400 bytes; read ${DIR}/${sha}.txt]`);
    expect(messages[3].content[2].input.old_string).toBe('x');
    expect(messages[1].content[1].text).toMatch(/^\[ctxshed: assistant text moved out of the context; 167 bytes; read \/state\/elided\/[0-9a-f]{64}\.txt\]$/);
    expect(messages[1].content[0]).toEqual({ type: 'thinking', thinking: 'hm', signature: 'sig' });
  });

  it('should keep an OpenAI call’s arguments JSON text with every key and type, its large strings stubbed', () => {
    // Arrange
    const body = responsesDeepBody();
    const plan = planned(RESPONSES_API, body);

    // Act
    const outcome = rewriteRequest(body, frozenOf(plan), { elidedDir: DIR, sha256, api: RESPONSES_API });

    // Assert
    const call = JSON.parse(fromUtf8(outcome.body)).input[2];
    const args = JSON.parse(call.arguments);
    expect(Object.keys(args)).toEqual(['cmd', 'workdir', 'timeout_ms']);
    expect(args.workdir).toBe('/w');
    expect(args.timeout_ms).toBe(1000);
    expect(args.cmd).toMatch(/^\[ctxshed: tool input moved out of the context; the arguments of exec_command, \d+ bytes; read /);
  });

  it('should leave a part whose bytes changed, or whose file is missing, and say why', () => {
    // Arrange
    const body = messagesDeepBody();
    const frozen = frozenOf(planned(MESSAGES_API, body)).filter((b) => b.part !== undefined);
    const edited = utf8(fromUtf8(body).replace('I will write it.', 'I will write this.'));

    // Act
    const changed = rewriteRequest(edited, frozen, { elidedDir: DIR, sha256 });
    const missing = rewriteRequest(body, frozen, { elidedDir: DIR, sha256, isAvailable: (b) => b.tool !== 'Edit' });

    // Assert
    expect(changed.skipped).toEqual([{ ordinal: 0, reason: 'hash_mismatch', part: 'assistant_text' }]);
    expect(missing.skipped).toEqual([{ ordinal: 4, reason: 'file_missing', part: 'tool_input' }]);
  });
});

describe('the output check of a rewrite with parts', () => {
  it('should pass the output, and fail it when a byte of a part’s block outside its stub changed, or a stub is not the one put there', () => {
    // Arrange
    const body = messagesDeepBody();
    const plan = planned(MESSAGES_API, body);
    const outcome = rewriteRequest(body, frozenOf(plan), { elidedDir: DIR, sha256 });
    if (outcome.kind !== 'applied') throw new Error(outcome.reason);
    const index = indexed(MESSAGES_API, body);
    const judged = TOOL_RESULTS.judge(body, index, frozenOf(plan), { elidedDir: DIR, sha256 });
    const tamper = (from: string, to: string): Uint8Array => utf8(fromUtf8(outcome.body).replace(from, to));

    // Act
    const passes = checkRewrite(body, index, outcome.body, judged.applied);
    const pathChanged = checkRewrite(body, index, tamper('"file_path":"/p/a.ts","content"', '"file_path":"/p/b.ts","content"'), judged.applied);
    const stubChanged = checkRewrite(body, index, tamper('the content of Write', 'the contents of Write'), judged.applied);

    // Assert
    expect(passes).toBeUndefined();
    expect(pathChanged).toMatch(/message 1 block 2 \(tool_use\) is not its bytes with its stubs/);
    expect(stubChanged).toMatch(/message 1 block 2 \(tool_use\) is not its bytes with its stubs/);
  });
});
