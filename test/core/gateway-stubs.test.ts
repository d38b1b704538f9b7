import { describe, expect, it } from 'vitest';
import type { FrozenBlock } from '../../src/core/epoch-types.js';
import { renderLabelStub, type LabelledBlock } from '../../src/core/label-stub.js';
import { parseSpanStub, renderSpanStub } from '../../src/core/shed/span-stub.js';
import { parseStub, renderStub } from '../../src/core/stub.js';
import { GATEWAY_STUB_DIR } from '../../src/core/stub-paths.js';

const SHA = 'a'.repeat(64);
const RAW_SHA = '0123456789abcdef'.repeat(4);
const BLOCK: FrozenBlock = { ordinal: 3, toolUseId: 'toolu_01', bytes: 12345, sha256: SHA, jsonBytes: 12400, jsonSha256: 'b'.repeat(64) };
const DIR = '/home/dev/.local/state/ctxshed/elided';

describe("a gateway's stubs", () => {
  it('should name the restore tool and the sha256, never a path, and read back like the single-user ones', () => {
    const plain = renderStub(BLOCK, GATEWAY_STUB_DIR);
    const raw = renderStub({ ...BLOCK, rawSha256: RAW_SHA }, GATEWAY_STUB_DIR);
    expect(plain).toBe(
      `[ctxshed: tool result moved out of the context to save space; 12345 bytes, sha256 ${SHA}; the ctxshed gateway keeps the full text: call ctxshed's restore tool with this sha256 to see it]`,
    );
    expect(raw).not.toContain('/');
    expect(parseStub(plain)).toEqual({ bytes: 12345, sha256: SHA });
    expect(parseStub(raw)).toEqual({ bytes: 12345, sha256: SHA, rawSha256: RAW_SHA });
  });

  it('should leave the single-user stub byte for byte as it was', () => {
    expect(renderStub({ ...BLOCK, rawSha256: RAW_SHA }, DIR)).toBe(
      `[ctxshed: tool result moved out of the context to save space; 12345 bytes, sha256 ${SHA}; the full text is in ${DIR}/${SHA}.txt, read that file to see it; exact original JSON in ${DIR}/${RAW_SHA}.json]`,
    );
  });

  it('should give each labelled stub a restore route, and read every one back with its label and route', () => {
    const base: LabelledBlock = { ...BLOCK, label: 'pointer', tool: 'Read', input: '/src/a.ts', rawSha256: RAW_SHA };
    for (const refetch of ['same-call', 'elided-file', 'restore'] as const) {
      const text = renderLabelStub({ ...base, refetch }, GATEWAY_STUB_DIR);
      expect(text).toContain("call ctxshed's restore tool with this sha256");
      expect(text).not.toContain(DIR);
      expect(parseStub(text)).toMatchObject({ sha256: SHA, rawSha256: RAW_SHA, label: 'pointer', refetch, tool: 'Read', input: '/src/a.ts' });
    }
    const drop = renderLabelStub({ ...base, label: 'drop', rule: 'superseded' }, GATEWAY_STUB_DIR);
    expect(drop).toContain(`sha256 ${SHA}`);
    expect(parseStub(drop)).toMatchObject({ sha256: SHA, label: 'drop', rule: 'superseded', bytes: 12345 });
  });

  it('should give a span stub the handle and the restore tool only, and read it back', () => {
    const span = { first: 2, last: 5, sha256: SHA, bytes: 9000, pins: [] };
    const text = renderSpanStub(span, GATEWAY_STUB_DIR);
    expect(text).toContain(`Handle: ${SHA}. To see them again, call the ctxshed restore tool with this handle (the ctxshed gateway keeps them).]`);
    expect(parseSpanStub(text)).toEqual({ messages: 4, bytes: 9000, sha256: SHA });
    expect(parseSpanStub(renderSpanStub(span, '/st/spans'))).toEqual({ messages: 4, bytes: 9000, sha256: SHA });
    expect(renderSpanStub(span, '/st/spans')).toContain(`, or read /st/spans/${SHA}.md (the exact JSON is in /st/spans/${SHA}.json).]`);
  });
});
