import { describe, expect, it } from 'vitest';
import type { FrozenBlock } from '../../src/core/epoch-types.js';
import { CLIENT_CLEARED_PLACEHOLDER } from '../../src/core/plan-elision.js';
import { renderLabelStub, type LabelledBlock } from '../../src/core/label-stub.js';
import { elidedRawPath, elidedTextPath, looksLikeStub, parseStub, renderStub } from '../../src/core/stub.js';
import { utf8 } from './bodies.js';

const SHA = 'a'.repeat(64);
const RAW_SHA = '0123456789abcdef'.repeat(4);
const BLOCK: FrozenBlock = { ordinal: 3, toolUseId: 'toolu_01', bytes: 12345, sha256: SHA, jsonBytes: 12400, jsonSha256: 'b'.repeat(64) };
const DIR = '/home/dev/.local/state/ctxshed/elided';

describe('elidedTextPath', () => {
  it('should name the text file by its sha256 in the elided folder', () => {
    // Arrange: the constants above.

    // Act
    const path = elidedTextPath(DIR, SHA);

    // Assert
    expect(path).toBe(`${DIR}/${SHA}.txt`);
  });
});

describe('elidedRawPath', () => {
  it('should name the raw JSON file by its own sha256', () => {
    // Arrange: the constants above.

    // Act
    const path = elidedRawPath(DIR, RAW_SHA);

    // Assert
    expect(path).toBe(`${DIR}/${RAW_SHA}.json`);
  });
});

describe('renderStub', () => {
  it('should write the fixed text naming bytes, sha256 and the file', () => {
    // Arrange: the constants above.

    // Act
    const stub = renderStub(BLOCK, DIR);

    // Assert
    // Any change to these bytes re-writes every conversation's prompt cache: change them on purpose.
    expect(stub).toBe(
      '[ctxshed: tool result moved out of the context to save space; 12345 bytes, ' +
        `sha256 ${SHA}; the full text is in ${DIR}/${SHA}.txt, read that file to see it]`,
    );
  });

  it('should add the raw JSON file when the block has one', () => {
    // Arrange
    const block: FrozenBlock = { ...BLOCK, rawSha256: RAW_SHA };

    // Act
    const stub = renderStub(block, DIR);

    // Assert
    expect(stub).toBe(`${renderStub(BLOCK, DIR).slice(0, -1)}; exact original JSON in ${DIR}/${RAW_SHA}.json]`);
  });

  it('should depend only on bytes, text and raw hashes and folder, not on ordinal, tool_use_id or JSON size', () => {
    // Arrange
    const other: FrozenBlock = { ...BLOCK, ordinal: 99, toolUseId: 'toolu_other', jsonBytes: 1, jsonSha256: 'c'.repeat(64) };

    // Act
    const stubs = [renderStub(BLOCK, DIR), renderStub(BLOCK, DIR), renderStub(other, DIR)];

    // Assert
    expect(new Set(stubs).size).toBe(1);
  });
});

describe('renderStub of a labelled block (policy version 3)', () => {
  it('should write the labelled stub when the block carries a label, and the version 2 stub when not', () => {
    // Arrange
    const labelled: FrozenBlock = { ...BLOCK, label: 'pointer', rule: 'default', tool: 'Bash', input: 'npm test', refetch: 'elided-file' };

    // Act
    const v3 = renderStub(labelled, DIR);
    const v2 = renderStub(BLOCK, DIR);

    // Assert
    expect(v3).toBe(renderLabelStub(labelled as LabelledBlock, DIR));
    expect(v2).toBe(
      '[ctxshed: tool result moved out of the context to save space; 12345 bytes, ' +
        `sha256 ${SHA}; the full text is in ${DIR}/${SHA}.txt, read that file to see it]`,
    );
  });
});

describe('parseStub', () => {
  it.each([
    ['a pointer', { label: 'pointer', rule: 'default', tool: 'Read', input: '/a.ts', refetch: 'same-call' }],
    ['a drop', { label: 'drop', rule: 'superseded', tool: 'Read', input: '/a.ts', refetch: 'same-call', rawSha256: RAW_SHA }],
  ] as Array<[string, Partial<FrozenBlock>]>)('should read back a version 3 %s with its bytes and hashes', (_case, extra) => {
    // Arrange
    const block: FrozenBlock = { ...BLOCK, ...extra };

    // Act
    const parsed = parseStub(renderStub(block, DIR));

    // Assert
    expect(parsed).toMatchObject({ bytes: block.bytes, sha256: block.sha256, label: block.label, tool: 'Read', input: '/a.ts' });
    expect(parsed?.rawSha256).toBe(block.rawSha256);
  });

  it.each([
    ['a plain folder', DIR, undefined],
    ['a raw file', DIR, RAW_SHA],
    ['a folder with spaces', '/Users/Jane Doe/Library/Application Support/ctxshed/elided', RAW_SHA],
    ['a folder with quotes and a backslash', '/tmp/it\'s "here"\\x/elided', undefined],
    ['a folder with non-ASCII and a newline', '/home/zoë/状態\n/elided', RAW_SHA],
    ['the root as folder', '', undefined],
  ])('should read back what renderStub wrote, with %s', (_name, dir, rawSha256) => {
    // Arrange
    const block: FrozenBlock = rawSha256 === undefined ? BLOCK : { ...BLOCK, rawSha256 };
    const text = renderStub(block, dir);

    // Act
    const parsed = parseStub(text);

    // Assert
    expect(parsed).toEqual(rawSha256 === undefined ? { bytes: 12345, sha256: SHA } : { bytes: 12345, sha256: SHA, rawSha256 });
  });

  it('should leave rawSha256 out entirely, not set it to undefined, when there is none', () => {
    // Arrange
    const text = renderStub(BLOCK, DIR);

    // Act
    const parsed = parseStub(text);

    // Assert
    expect(parsed !== undefined && 'rawSha256' in parsed).toBe(false);
  });

  it.each([
    ['the empty string', ''],
    ["the client's placeholder", CLIENT_CLEARED_PLACEHOLDER],
    ['the prefix alone', renderStub(BLOCK, DIR).slice(0, renderStub(BLOCK, DIR).indexOf('12345'))],
    ['a stub without its closing bracket', renderStub(BLOCK, DIR).slice(0, -1)],
    ['a stub with a leading space', ` ${renderStub(BLOCK, DIR)}`],
    ['a stub with trailing text', `${renderStub(BLOCK, DIR)}\nmore`],
    ['a short sha256', renderStub({ ...BLOCK, sha256: 'a'.repeat(63) }, DIR)],
    ['an uppercase sha256', renderStub({ ...BLOCK, sha256: 'A'.repeat(64) }, DIR)],
    ['a file named by another sha256', renderStub(BLOCK, DIR).replace(`${SHA}.txt`, `${'b'.repeat(64)}.txt`)],
    ['a byte count that is not a number', renderStub(BLOCK, DIR).replace('12345 bytes', 'many bytes')],
    ['a file not in a folder', renderStub(BLOCK, DIR).replace(`${DIR}/`, '')],
  ])('should refuse %s', (_name, text) => {
    // Arrange: the text.

    // Act
    const parsed = parseStub(text);

    // Assert
    expect(parsed).toBeUndefined();
  });
});

describe('looksLikeStub', () => {
  it("should recognise a drop stub's token too", () => {
    // Arrange
    const token = utf8(JSON.stringify(renderStub({ ...BLOCK, label: 'drop', rule: 'duplicate', tool: 'Grep', input: 'x', refetch: 'same-call' }, DIR)));

    // Act, Assert
    expect(looksLikeStub(token)).toBe(true);
  });

  it("should recognise a stub's JSON string token by its prefix", () => {
    // Arrange
    const token = utf8(JSON.stringify(renderStub(BLOCK, DIR)));

    // Act
    const looks = looksLikeStub(token);

    // Assert
    expect(looks).toBe(true);
  });

  it.each([
    ['the placeholder', JSON.stringify(CLIENT_CLEARED_PLACEHOLDER)],
    ['an empty string', '""'],
    ['the prefix without its opening quote', renderStub(BLOCK, DIR)],
    ['the prefix cut short', JSON.stringify(renderStub(BLOCK, DIR).slice(0, 20))],
    ['ordinary text', JSON.stringify('     1→import x')],
  ])('should not recognise %s', (_name, token) => {
    // Arrange
    const bytes = utf8(token);

    // Act
    const looks = looksLikeStub(bytes);

    // Assert
    expect(looks).toBe(false);
  });
});
