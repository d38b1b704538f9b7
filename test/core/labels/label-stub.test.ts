import { describe, expect, it } from 'vitest';
import type { FrozenBlock } from '../../../src/core/epoch-types.js';
import { parseLabelStub, renderLabelStub, type LabelledBlock } from '../../../src/core/label-stub.js';

const SHA = 'e8428025c464'.padEnd(64, '0');
const RAW = 'ab'.repeat(32);
const DIR = '/home/dev/.local/state/ctxshed/elided';
const BASE: FrozenBlock = { ordinal: 14, toolUseId: 'toolu_14', bytes: 48213, sha256: SHA, jsonBytes: 48300, jsonSha256: 'c'.repeat(64) };

function labelled(extra: Partial<LabelledBlock> & Pick<LabelledBlock, 'label'>): LabelledBlock {
  return { ...BASE, tool: 'Bash', input: 'npm test', rule: 'default', refetch: 'elided-file', ...extra };
}

describe('renderLabelStub', () => {
  // Any change to these bytes re-writes every version 3 conversation's prompt cache.
  it.each([
    [
      'a pointer read back from its file',
      labelled({ label: 'pointer' }),
      `[ctxshed: tool result moved out of the context to save space; Bash "npm test"; 48213 bytes, sha256 ${SHA}; to see it again, read ${DIR}/${SHA}.txt]`,
    ],
    [
      'a pointer of a read-only call',
      labelled({ label: 'pointer', tool: 'Read', input: '/src/pay.ts', refetch: 'same-call' }),
      `[ctxshed: tool result moved out of the context to save space; Read "/src/pay.ts"; 48213 bytes, sha256 ${SHA}; to see it again, make the same call (for its current output) or read ${DIR}/${SHA}.txt (this output)]`,
    ],
    [
      'a pointer to the restore tool',
      labelled({ label: 'pointer', refetch: 'restore' }),
      `[ctxshed: tool result moved out of the context to save space; Bash "npm test"; 48213 bytes, sha256 ${SHA}; to see it again, call ctxshed's restore tool with this sha256 or read ${DIR}/${SHA}.txt]`,
    ],
    [
      'a drop',
      labelled({ label: 'drop', tool: 'Read', input: '/src/pay.ts', rule: 'superseded', refetch: 'same-call' }),
      `[ctxshed: dropped Read "/src/pay.ts" (superseded by a later call), 48213 bytes; text kept in ${DIR}/${SHA}.txt]`,
    ],
    [
      'a drop of a call without a main input, with a raw file',
      labelled({ label: 'drop', tool: 'TodoWrite', input: '', rule: 'duplicate', rawSha256: RAW }),
      `[ctxshed: dropped TodoWrite (the same text appears later), 48213 bytes; text kept in ${DIR}/${SHA}.txt; exact original JSON in ${DIR}/${RAW}.json]`,
    ],
  ])('should write %s', (_case, block, expected) => {
    expect(renderLabelStub(block, DIR)).toBe(expected);
  });

  it('should quote an input with quotes, backslashes and newlines as a JSON string', () => {
    // Arrange
    const block = labelled({ label: 'pointer', input: 'echo "a\\b"\nls' });

    // Act
    const stub = renderLabelStub(block, DIR);

    // Assert
    expect(stub).toContain('Bash "echo \\"a\\\\b\\"\\nls";');
  });

  it('should write a tool name it could not read back as unknown', () => {
    expect(renderLabelStub(labelled({ label: 'pointer', tool: 'my tool; 9 bytes' }), DIR)).toContain('space; unknown "npm test";');
  });

  it('should make a drop stub shorter than the pointer of the same block', () => {
    for (const refetch of ['same-call', 'elided-file', 'restore'] as const) {
      expect(renderLabelStub(labelled({ label: 'drop', rule: 'superseded' }), DIR).length).toBeLessThan(
        renderLabelStub(labelled({ label: 'pointer', refetch }), DIR).length,
      );
    }
  });

  it('should depend on the frozen fields and the folder only, not on ordinal, id or JSON size', () => {
    // Arrange
    const block = labelled({ label: 'pointer' });
    const other = { ...block, ordinal: 1, toolUseId: 'x', jsonBytes: 1, jsonSha256: 'd'.repeat(64) };

    // Act, Assert
    expect(renderLabelStub(other, DIR)).toBe(renderLabelStub(block, DIR));
  });
});

describe('parseLabelStub', () => {
  it.each([
    ['a plain folder', DIR],
    ['a folder with spaces, quotes and a newline', '/Users/Jane "J" Doe/st\nate/elided'],
    ['a folder that looks like a stub', `/x; 5 bytes, sha256 ${'f'.repeat(64)}; to see it again, read /y`],
    ['the root', ''],
  ])('should read back every label, route and rule with %s', (_case, dir) => {
    const blocks: LabelledBlock[] = [
      labelled({ label: 'pointer', refetch: 'same-call', tool: 'Read', input: '/a "b"\n' }),
      labelled({ label: 'pointer', refetch: 'elided-file', input: '' }),
      labelled({ label: 'pointer', refetch: 'restore', rawSha256: RAW }),
      ...(['superseded', 'duplicate', 'retried', 'secret', 'model'] as const).map((rule) => labelled({ label: 'drop', rule, rawSha256: RAW })),
    ];
    for (const block of blocks) {
      // Act
      const parsed = parseLabelStub(renderLabelStub(block, dir));

      // Assert
      expect(parsed).toEqual({
        bytes: block.bytes,
        sha256: block.sha256,
        ...(block.rawSha256 === undefined ? {} : { rawSha256: block.rawSha256 }),
        label: block.label,
        tool: block.tool,
        input: block.input,
        ...(block.label === 'pointer' ? { refetch: block.refetch } : { rule: block.rule }),
      });
    }
  });

  it.each([
    [
      'a version 2 stub',
      `[ctxshed: tool result moved out of the context to save space; 5 bytes, sha256 ${SHA}; the full text is in ${DIR}/${SHA}.txt, read that file to see it]`,
    ],
    ['a pointer naming another file', renderLabelStub(labelled({ label: 'pointer' }), DIR).replace(`${SHA}.txt`, `${'b'.repeat(64)}.txt`)],
    ['a drop with a reason of its own', renderLabelStub(labelled({ label: 'drop', rule: 'retried' }), DIR).replace('the call was retried', 'because')],
    ['a drop with a broken input quote', renderLabelStub(labelled({ label: 'drop', rule: 'retried' }), DIR).replace('"npm test"', '"npm \\x"')],
    ['a stub with trailing text', `${renderLabelStub(labelled({ label: 'pointer' }), DIR)} `],
  ])('should refuse %s', (_case, text) => {
    expect(parseLabelStub(text)).toBeUndefined();
  });
});
