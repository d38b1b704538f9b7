import { describe, expect, it } from 'vitest';
import { CHAT_API } from '../../../../src/core/dialects/chat.js';
import { MESSAGES_API } from '../../../../src/core/dialects/messages.js';
import { RESPONSES_API } from '../../../../src/core/dialects/responses.js';
import type { ApiDialect } from '../../../../src/core/dialects/dialect.js';
import type { ElisionPolicy } from '../../../../src/core/epoch-types.js';
import { planParts, recentFrom } from '../../../../src/core/epochs/tool-results/plan-parts.js';
import { filler, fromUtf8, sha256, utf8 } from '../../bodies.js';
import { chatDeepBody, DEEP_POLICY, messagesDeepBody, responsesDeepBody } from '../../deep-bodies.js';

function indexed(api: ApiDialect, body: Uint8Array) {
  const outcome = api.index(body);
  if (outcome.kind !== 'indexed') throw new Error(outcome.reason);
  return outcome.index;
}

function plan(api: ApiDialect, body: Uint8Array, policy: ElisionPolicy = DEEP_POLICY, elidedDir = '/s/elided') {
  return planParts({ body, index: indexed(api, body), policy, readSites: api.partSites, readCalls: api.calls, elidedDir }, sha256);
}

describe('planParts', () => {
  it('should take the Messages strings over the floor of old tool inputs and old assistant texts, naming each call', () => {
    // Arrange
    const body = messagesDeepBody();

    // Act
    const parts = plan(MESSAGES_API, body);

    // Assert: the Bash is the newest call (keepRecent 1), so its command and text stay.
    expect(parts.map((p) => [p.part, p.messageIndex, p.blockIndex, p.path, p.tool ?? '', p.input ?? ''])).toEqual([
      ['assistant_text', 1, 1, ['text'], '', ''],
      ['tool_input', 1, 2, ['input', 'content'], 'Write', '/p/a.ts'],
      ['tool_input', 3, 2, ['input', 'new_string'], 'Edit', '/p/a.ts'],
    ]);
    expect(parts.map((p) => p.ordinal)).toEqual([0, 1, 4]);
    expect(fromUtf8(parts[1]!.text)).toBe(filler(400, 1));
    expect(parts.every((p) => p.rawSha256 === undefined && p.refetch === 'elided-file')).toBe(true);
  });

  it('should keep the exact bytes of a string that is not the canonical encoding of its text', () => {
    // Arrange
    const body = utf8(fromUtf8(messagesDeepBody({ escaped: true })).replace('two/é', 'two\\/\\u00e9'));

    // Act
    const write = plan(MESSAGES_API, body).find((p) => p.tool === 'Write')!;

    // Assert
    expect(write.raw).toBeDefined();
    expect(write.rawSha256).toBe(sha256(write.raw!));
    expect(fromUtf8(write.text)).toContain('two/é');
  });

  it('should take nothing without a deeper cut, a part not named, or a string at or under the floor', () => {
    // Arrange
    const body = messagesDeepBody();
    const { deep: _deep, ...plain } = DEEP_POLICY;

    // Act / Assert
    expect(plan(MESSAGES_API, body, plain)).toEqual([]);
    expect(plan(MESSAGES_API, body, { ...DEEP_POLICY, deep: { ...DEEP_POLICY.deep, parts: ['assistant_text'] } }).map((p) => p.part)).toEqual([
      'assistant_text',
    ]);
    expect(plan(MESSAGES_API, body, { ...DEEP_POLICY, deep: { ...DEEP_POLICY.deep, inputMinBytes: 401, textMinBytes: 500 } }).map((p) => p.tool)).toEqual([]);
  });

  it('should leave a call that reads an elided file back, and text that is already a stub', () => {
    // Arrange
    const dir = '/s/elided';
    const body = utf8(
      fromUtf8(messagesDeepBody())
        .replace('"file_path":"/p/a.ts","content"', `"file_path":"${dir}/x.txt","content"`)
        .replace('I will write it.', '[ctxshed: assistant text moved out of the context; x'),
    );

    // Act
    const parts = plan(MESSAGES_API, body, DEEP_POLICY, dir);

    // Assert
    expect(parts.map((p) => p.tool ?? p.part)).toEqual(['Edit']);
  });

  it('should take a Responses call’s JSON arguments (its large strings), a custom call’s input and assistant texts', () => {
    // Arrange
    const body = responsesDeepBody();

    // Act
    const parts = plan(RESPONSES_API, body);

    // Assert: the last call is the newest (keepRecent 1), and the text after the custom call comes before it.
    expect(parts.map((p) => [p.part, p.messageIndex, p.path, p.within ?? null, p.tool ?? ''])).toEqual([
      ['assistant_text', 1, ['content', 0, 'text'], null, ''],
      ['tool_input', 2, ['arguments'], [['cmd']], 'exec_command'],
      ['tool_input', 4, ['input'], null, 'apply_patch'],
      ['assistant_text', 6, ['content', 0, 'text'], null, ''],
    ]);
    expect(JSON.parse(fromUtf8(parts[1]!.text))).toMatchObject({ workdir: '/w' });
  });

  it('should take a chat tool call’s JSON arguments and an assistant message’s content, string or parts', () => {
    // Arrange
    const body = chatDeepBody();

    // Act
    const parts = plan(CHAT_API, body);

    // Assert
    expect(parts.map((p) => [p.part, p.messageIndex, p.blockIndex, p.path, p.within ?? null])).toEqual([
      ['assistant_text', 2, 0, ['content'], null],
      ['tool_input', 2, 1, ['function', 'arguments'], [['cmd']]],
      ['assistant_text', 4, 0, ['content', 0, 'text'], null],
    ]);
  });
});

describe('recentFrom', () => {
  it('should start the recent turns at the call of the oldest kept tool result, and at the last turn when none is kept', () => {
    // Arrange
    const index = indexed(MESSAGES_API, messagesDeepBody());

    // Act / Assert
    expect(recentFrom(index, 1)).toBe(5);
    expect(recentFrom(index, 2)).toBe(3);
    expect(recentFrom(index, 9)).toBe(1);
    expect(recentFrom(index, 0)).toBe(7);
  });
});
