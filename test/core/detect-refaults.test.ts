import { describe, expect, it } from 'vitest';
// The kinds' registry names the folders whose files are stored texts (core/stored-files.ts); the core's entry loads it.
import '../../src/core/epochs/kind-info.js';
import { detectRefaults, detectShellRefaults, RESTORE_TOOL_NAME } from '../../src/core/detect-refaults.js';
import type { Epoch, FrozenBlock } from '../../src/core/epoch-types.js';
import type { ToolCall } from '../../src/core/read-tool-calls.js';

const SHA_A = `a1${'0'.repeat(62)}`;
const SHA_B = `b2${'0'.repeat(62)}`;
const SHA_C = `a1${'0'.repeat(10)}${'c'.repeat(52)}`; // shares its first 12 digits with SHA_A

function block(ordinal: number, sha256: string): FrozenBlock {
  return { ordinal, toolUseId: `toolu_${ordinal}`, bytes: 2000, sha256, jsonBytes: 2002, jsonSha256: 'f'.repeat(64) };
}

function epoch(n: number, blocks: FrozenBlock[]): Epoch {
  return {
    n,
    latchedAt: '2026-01-01T00:00:00.000Z',
    trigger: 'threshold',
    reason: { fullness: 0.72, threshold: 0.7, window: 200_000, contextTokens: 144_000 },
    kind: 'tool_results',
    policy: { name: 'p', version: 2, keepRecent: 6, minBytes: 1024 },
    items: { tool_results: blocks },
  };
}

const EPOCHS = [epoch(1, [block(0, SHA_A)]), epoch(2, [block(3, SHA_B)])];
// A call as the reader gives it: the input's string fields in order, its numbers apart.
const call = (id: string, name: string, input: Record<string, unknown>): ToolCall => ({
  id,
  name,
  strings: Object.entries(input).flatMap(([k, v]) => (typeof v === 'string' ? [[k, v] as const] : [])),
  numbers: new Map(Object.entries(input).flatMap(([k, v]) => (typeof v === 'number' ? [[k, v] as const] : []))),
});

describe('detectRefaults', () => {
  it("should count a Read of an elided file, with the block's epoch and ordinal", () => {
    const calls = [call('toolu_9', 'Read', { file_path: `/home/me/.local/state/ctxshed/elided/${SHA_B}.txt` })];

    expect(detectRefaults(calls, EPOCHS)).toEqual([{ toolUseId: 'toolu_9', epoch: 2, ordinal: 3, sha256: SHA_B, via: 'read' }]);
  });

  it('should count a Bash command naming a sha256 or an elided path, each block once per call', () => {
    const calls = [
      call('toolu_9', 'Bash', { command: `sha256sum /st/elided/${SHA_A}.txt && grep -c x /st/elided/${SHA_A}.txt; cat ${SHA_B.toUpperCase()}.txt` }),
    ];

    expect(detectRefaults(calls, EPOCHS).map((r) => [r.ordinal, r.via])).toEqual([
      [0, 'bash'],
      [3, 'bash'],
    ]);
  });

  it('should count a restore by sha256 or by a prefix of 12+ hex digits that names one block', () => {
    const calls = [call('toolu_1', RESTORE_TOOL_NAME, { handle: SHA_B }), call('toolu_2', RESTORE_TOOL_NAME, { handle: SHA_A.slice(0, 14) })];

    expect(detectRefaults(calls, EPOCHS).map((r) => [r.toolUseId, r.ordinal, r.via])).toEqual([
      ['toolu_1', 3, 'restore'],
      ['toolu_2', 0, 'restore'],
    ]);
  });

  it('should not count a restore prefix that is too short or names two blocks', () => {
    const epochs = [...EPOCHS, epoch(3, [block(5, SHA_C)])];
    const calls = [call('toolu_1', RESTORE_TOOL_NAME, { handle: SHA_A.slice(0, 11) }), call('toolu_2', RESTORE_TOOL_NAME, { handle: SHA_A.slice(0, 12) })];

    expect(detectRefaults(calls, epochs)).toEqual([]);
  });

  it('should not count calls that name no elided block, or other tools', () => {
    const calls = [
      call('toolu_1', 'Read', { file_path: '/src/app.ts' }),
      call('toolu_2', 'Read', { file_path: `/st/elided/${'9'.repeat(64)}.txt` }),
      call('toolu_3', 'Bash', { command: `echo ${SHA_A}0` }),
      call('toolu_4', 'Grep', { pattern: 'x', path: `/st/elided/${SHA_A}.txt` }),
      call('toolu_5', 'Read', { file_path: 42 }),
    ];

    expect(detectRefaults(calls, EPOCHS)).toEqual([]);
  });
});

describe('detectShellRefaults', () => {
  it("should count any call whose input names a block's sha256, whatever the tool, once per call", () => {
    const calls = [
      call('call_1', 'exec_command', { cmd: `cat /st/elided/${SHA_A}.txt; wc -c /st/elided/${SHA_A}.txt` }),
      call('call_2', 'exec', { input: `text(await tools.exec_command({cmd: "cat ${SHA_B}.txt"}))` }),
      call('call_3', 'exec_command', { cmd: 'ls' }),
    ];

    expect(detectShellRefaults(calls, EPOCHS).map((r) => [r.toolUseId, r.ordinal, r.via])).toEqual([
      ['call_1', 0, 'shell'],
      ['call_2', 3, 'shell'],
    ]);
  });

  it('should not count a run of 65 hex digits or a sha no epoch froze', () => {
    const calls = [call('call_1', 'exec_command', { cmd: `echo ${SHA_A}0 ${'9'.repeat(64)}` })];

    expect(detectShellRefaults(calls, EPOCHS)).toEqual([]);
  });
});

describe('detectRefaults, shed spans', () => {
  const SPAN = `d4${'0'.repeat(62)}`;
  const shed: Epoch = { ...epoch(3, []), kind: 'span', items: { span: [{ first: 5, last: 12, sha256: SPAN, bytes: 9000, pins: [] }] } };

  it("should count a restore of a span's handle, or a Read of its .md or .json, as a refault of the span", () => {
    const calls = [
      call('toolu_r', RESTORE_TOOL_NAME, { handle: SPAN.slice(0, 12) }),
      call('toolu_m', 'Read', { file_path: `/home/me/.local/state/ctxshed/spans/${SPAN}.md` }),
      call('toolu_j', 'Read', { file_path: `/s/spans/${SPAN}.json` }),
      call('toolu_x', 'Read', { file_path: `/src/${SPAN}.md` }),
    ];

    const refaults = detectRefaults(calls, [...EPOCHS, shed]);

    expect(refaults).toEqual(
      ['toolu_r', 'toolu_m', 'toolu_j'].map((toolUseId) => ({
        toolUseId,
        epoch: 3,
        ordinal: 5,
        sha256: SPAN,
        via: toolUseId === 'toolu_r' ? 'restore' : 'read',
        span: true,
      })),
    );
  });
});
