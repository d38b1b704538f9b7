import { describe, expect, it } from 'vitest';
import { renderStub } from '../../src/core/stub.js';
import { stubsInRequest, toolResultText } from '../../src/demo/stub-in-request.js';

const SHA = 'ab'.repeat(32);
const stub = renderStub({ ordinal: 0, toolUseId: 'toolu_01', bytes: 5000, sha256: SHA, jsonBytes: 5002, jsonSha256: 'cd'.repeat(32) }, '/tmp/state dir/elided');

function body(content: unknown): unknown {
  return {
    messages: [
      { role: 'user', content: 'hi' },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_01', content },
          { type: 'tool_result', tool_use_id: 'toolu_02', content: 'plain text' },
        ],
      },
    ],
  };
}

describe('stubsInRequest', () => {
  it('should read the path, sha256 and size from a stub, as a model would', () => {
    expect(stubsInRequest(body(stub))).toEqual([{ toolUseId: 'toolu_01', path: `/tmp/state dir/elided/${SHA}.txt`, sha256: SHA, bytes: 5000 }]);
  });

  it.each([
    ['a pointer read back with the same call', { label: 'pointer', rule: 'default', tool: 'Read', input: '/a.ts', refetch: 'same-call' }],
    ['a pointer read back from its file', { label: 'pointer', rule: 'default', tool: 'Bash', input: 'ls', refetch: 'elided-file' }],
    ['a pointer to restore', { label: 'pointer', rule: 'default', tool: 'Bash', input: 'ls', refetch: 'restore' }],
    ['a drop', { label: 'drop', rule: 'superseded', tool: 'Read', input: '/a.ts', refetch: 'same-call' }],
  ] as const)('should read the path of a version 3 stub too: %s', (_case, labels) => {
    const v3 = renderStub(
      { ordinal: 0, toolUseId: 'toolu_01', bytes: 5000, sha256: SHA, jsonBytes: 5002, jsonSha256: 'cd'.repeat(32), ...labels },
      '/tmp/state dir/elided',
    );
    expect(stubsInRequest(body(v3))).toEqual([{ toolUseId: 'toolu_01', path: `/tmp/state dir/elided/${SHA}.txt`, sha256: SHA, bytes: 5000 }]);
  });

  it('should find nothing in tool results that are not stubs', () => {
    expect(stubsInRequest(body('[ctxshed: not really a stub]'))).toEqual([]);
    expect(stubsInRequest({ model: 'x' })).toEqual([]);
  });
});

describe('toolResultText', () => {
  it('should give the text answering a tool_use id, and undefined for an unknown id', () => {
    expect(toolResultText(body(stub), 'toolu_02')).toBe('plain text');
    expect(toolResultText(body(stub), 'toolu_99')).toBeUndefined();
  });
});
