import { describe, expect, it } from 'vitest';
import {
  CLIENT_CLEARED_PLACEHOLDER,
  DEFAULT_KEEP_RECENT,
  DEFAULT_MIN_ELIDE_BYTES,
  DEFAULT_POLICY,
  freezeBlock,
  planElision,
  type PlannedBlock,
} from '../../src/core/plan-elision.js';
import { renderStub } from '../../src/core/stub.js';
import { conversation, filler, mustIndex, replaceNth, sha256, slice, utf8 } from './bodies.js';

const BIG = 2000;

function plan(body: Uint8Array, policy = DEFAULT_POLICY, elidedDir?: string): PlannedBlock[] {
  return planElision(body, mustIndex(body), policy, sha256, elidedDir === undefined ? {} : { elidedDir });
}

function ordinals(planned: readonly PlannedBlock[]): number[] {
  return planned.map((b) => b.ordinal);
}

/** `n` distinct big text results. */
function bigResults(n: number): string[] {
  return Array.from({ length: n }, (_, i) => filler(BIG, i));
}

describe('planElision', () => {
  it('should use the documented defaults: keep the 6 newest, elide over 1 KiB', () => {
    // Arrange: nothing.

    // Act
    const policy = DEFAULT_POLICY;

    // Assert
    expect(policy).toEqual({ keepRecent: 6, minBytes: 1024 });
    expect([DEFAULT_KEEP_RECENT, DEFAULT_MIN_ELIDE_BYTES]).toEqual([6, 1024]);
  });

  it('should plan every big text tool_result older than the 6 newest, oldest first', () => {
    // Arrange
    const body = conversation(bigResults(9));

    // Act
    const planned = plan(body);

    // Assert
    expect(ordinals(planned)).toEqual([0, 1, 2]);
  });

  it("should describe each planned block: ordinal, tool_use_id, the text's bytes and sha256, the JSON's bytes and sha256", () => {
    // Arrange
    const text = `${filler(1500)} é 🙂\n"quoted"`;
    const body = conversation([text, ...bigResults(6)]);
    const json = utf8(JSON.stringify(text));

    // Act
    const [first] = plan(body);

    // Assert
    expect(first).toEqual({
      ordinal: 0,
      toolUseId: 'toolu_0',
      bytes: utf8(text).length,
      sha256: sha256(utf8(text)),
      jsonBytes: json.length,
      jsonSha256: sha256(json),
      text: utf8(text),
    });
  });

  it.each([
    [6, 7, [0]],
    [6, 6, []],
    [0, 3, [0, 1, 2]],
    [2, 3, [0]],
    [10, 3, []],
  ])('should keep the newest %i of %i tool_results, planning %j', (keepRecent, count, expected) => {
    // Arrange
    const body = conversation(bigResults(count));

    // Act
    const planned = plan(body, { keepRecent, minBytes: 1024 });

    // Assert
    expect(ordinals(planned)).toEqual(expected);
  });

  it('should elide text of 1025 bytes but not of exactly 1024', () => {
    // Arrange
    const body = conversation([filler(1024), filler(1025), ...bigResults(6)]);

    // Act
    const planned = plan(body);

    // Assert
    expect(ordinals(planned)).toEqual([1]);
    expect(planned[0]?.bytes).toBe(1025);
  });

  it('should count the UTF-8 bytes of the text, not characters nor JSON bytes', () => {
    // Arrange: 1024 and 1025 UTF-8 bytes in 512 and 513 characters; then 1024 bytes of newlines
    // whose JSON token is 2048 bytes long.
    const body = conversation(['é'.repeat(512), `${'é'.repeat(512)}a`, '\n'.repeat(1024), ...bigResults(6)]);

    // Act
    const planned = plan(body);

    // Assert
    expect(ordinals(planned)).toEqual([1]);
  });

  it('should never plan a tool_result in the last message, however old', () => {
    // Arrange
    const body = conversation(bigResults(3), { closing: false });

    // Act
    const planned = plan(body, { keepRecent: 0, minBytes: 0 });

    // Assert
    expect(ordinals(planned)).toEqual([0, 1]);
  });

  it('should skip a tool_result carrying cache_control on the block or inside its content', () => {
    // Arrange
    const cc = { cache_control: { type: 'ephemeral' } };
    const body = conversation([filler(BIG), [{ type: 'text', text: filler(BIG), ...cc }], filler(BIG)], { extra: [cc] });

    // Act
    const planned = plan(body, { keepRecent: 0, minBytes: 1024 });

    // Assert
    expect(ordinals(planned)).toEqual([2]);
  });

  it('should skip content that is not text: an image among text blocks, absent content, null', () => {
    // Arrange
    const image = { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'A'.repeat(BIG) } };
    const body = conversation([[{ type: 'text', text: filler(BIG) }, image], undefined, null, filler(BIG)]);

    // Act
    const planned = plan(body, { keepRecent: 0, minBytes: 0 });

    // Assert
    expect(ordinals(planned)).toEqual([3]);
  });

  it("should skip the client's own placeholder and a ctxshed stub, even with no size limit", () => {
    // Arrange
    const stub = renderStub({ ordinal: 0, toolUseId: 'x', bytes: 5000, sha256: 'f'.repeat(64), jsonBytes: 5002, jsonSha256: 'e'.repeat(64) }, '/s/elided');
    const body = conversation([CLIENT_CLEARED_PLACEHOLDER, stub, 'short']);

    // Act
    const planned = plan(body, { keepRecent: 0, minBytes: 0 });

    // Assert
    expect(CLIENT_CLEARED_PLACEHOLDER).toBe('[Old tool result content cleared]');
    expect(ordinals(planned)).toEqual([2]);
  });

  it('should skip a version 3 stub of either label', () => {
    // Arrange
    const base = {
      ordinal: 0,
      toolUseId: 'x',
      bytes: 5000,
      sha256: 'f'.repeat(64),
      jsonBytes: 5002,
      jsonSha256: 'e'.repeat(64),
      tool: 'Bash',
      input: 'ls',
      refetch: 'elided-file',
    } as const;
    const pointer = renderStub({ ...base, label: 'pointer', rule: 'default' }, '/s/elided');
    const drop = renderStub({ ...base, label: 'drop', rule: 'duplicate' }, '/s/elided');
    const body = conversation([pointer, drop, 'short']);

    // Act
    const planned = plan(body, { keepRecent: 0, minBytes: 0 });

    // Assert
    expect(ordinals(planned)).toEqual([2]);
  });

  it('should skip a stub whose text is spelled with escapes, and a big text that starts like one', () => {
    // Arrange
    const stub = renderStub({ ordinal: 0, toolUseId: 'x', bytes: 5000, sha256: 'f'.repeat(64), jsonBytes: 5002, jsonSha256: 'e'.repeat(64) }, '/s/elided');
    const escaped = replaceNth(conversation([stub, `${stub}${filler(BIG)}`, filler(BIG)]), '"[ctxshed', '"\\u005bctxshed');

    // Act
    const planned = plan(escaped, { keepRecent: 0, minBytes: 0 });

    // Assert
    expect(ordinals(planned)).toEqual([2]);
  });

  it('should skip text that is not valid Unicode (a lone surrogate escape)', () => {
    // Arrange
    const body = replaceNth(conversation([`${filler(BIG)}X`, filler(BIG)]), 'X"', '\\ud800"');

    // Act
    const planned = plan(body, { keepRecent: 0, minBytes: 0 });

    // Assert
    expect(ordinals(planned)).toEqual([1]);
  });

  it('should leave rawSha256 out for content that is canonical JSON.stringify output', () => {
    // Arrange
    const body = conversation([`${filler(BIG)}\n\t"\\\u0001é`]);

    // Act
    const planned = plan(body, { keepRecent: 0, minBytes: 0 });

    // Assert
    expect(planned).toHaveLength(1);
    expect('rawSha256' in planned[0]!).toBe(false);
    expect('raw' in planned[0]!).toBe(false);
  });

  it.each([
    ['\\/ for /', '/', '\\/'],
    ['\\u00e9 for é', 'é', '\\u00e9'],
    ['\\u0041 for A', 'A', '\\u0041'],
    ['\\u000a for \\n', '\\n', '\\u000a'],
  ])('should keep the raw JSON of content with a non-canonical escape (%s)', (_name, canonical, escaped) => {
    // Arrange
    const body = replaceNth(conversation([`${filler(BIG)}${JSON.parse(`"${canonical}"`) as string}END`]), `${canonical}END`, `${escaped}END`);
    const content = mustIndex(body).toolResults[0]!.content;

    // Act
    const [block] = plan(body, { keepRecent: 0, minBytes: 0 });

    // Assert
    expect(slice(body, content)).toContain(`${escaped}END`);
    expect(block?.raw).toEqual(body.subarray(content.start, content.end));
    expect(block?.rawSha256).toBe(sha256(body.subarray(content.start, content.end)));
    expect(block?.jsonSha256).toBe(block?.rawSha256);
    expect(block?.jsonBytes).toBe(content.end - content.start);
    expect(block?.text).toEqual(utf8(`${filler(BIG)}${JSON.parse(`"${canonical}"`) as string}END`));
    expect(block?.sha256).toBe(sha256(block!.text));
  });

  it('should keep the raw JSON of text-block content, whose text is the blocks joined by newlines', () => {
    // Arrange
    const body = conversation([
      [
        { type: 'text', text: filler(800) },
        { type: 'text', text: filler(800, 1) },
      ],
    ]);
    const content = mustIndex(body).toolResults[0]!.content;

    // Act
    const [block] = plan(body, { keepRecent: 0, minBytes: 1024 });

    // Assert
    expect(block?.text).toEqual(utf8(`${filler(800)}\n${filler(800, 1)}`));
    expect(block?.bytes).toBe(1601);
    expect(block?.raw).toEqual(body.subarray(content.start, content.end));
  });

  it('should keep in view a tool result whose tool_use names the elided folder (reading an elided file back)', () => {
    // Arrange: results 0 and 1 are old and big; the tool_use of result 1 reads an elided file with cat.
    const dir = '/home/me/.local/state/ctxshed/elided';
    const body = replaceNth(conversation(bigResults(8)), '"input":{"file_path":"/p/1.ts"}', `"input":{"command":"cat ${dir}/${'a'.repeat(64)}.txt"}`);

    // Act
    const withDir = plan(body, DEFAULT_POLICY, dir);
    const withoutDir = plan(body, DEFAULT_POLICY);

    // Assert
    expect(ordinals(withDir)).toEqual([0]);
    expect(ordinals(withoutDir)).toEqual([0, 1]);
  });

  it('should recognise a read-back of an elided folder whose path JSON must escape', () => {
    // Arrange: the client writes the tool_use input with JSON.stringify, so the quote and the
    // backslash in this folder's name appear escaped in the body.
    const dir = '/home/o"brien/back\\slash/elided';
    const input = { command: `cat ${dir}/${'a'.repeat(64)}.txt` };
    const body = replaceNth(conversation(bigResults(8)), '"input":{"file_path":"/p/1.ts"}', `"input":${JSON.stringify(input)}`);

    // Act
    const planned = plan(body, DEFAULT_POLICY, dir);

    // Assert
    expect(ordinals(planned)).toEqual([0]);
  });

  it('should plan nothing for a body without tool_results', () => {
    // Arrange
    const body = conversation([]);

    // Act
    const planned = plan(body, { keepRecent: 0, minBytes: 0 });

    // Assert
    expect(planned).toEqual([]);
  });
});

describe('freezeBlock', () => {
  it('should keep the record and drop the text', () => {
    // Arrange
    const [block] = plan(conversation([filler(BIG)]), { keepRecent: 0, minBytes: 0 });

    // Act
    const frozen = freezeBlock(block!);

    // Assert
    const json = utf8(JSON.stringify(filler(BIG)));
    expect(frozen).toEqual({
      ordinal: 0,
      toolUseId: 'toolu_0',
      bytes: BIG,
      sha256: sha256(utf8(filler(BIG))),
      jsonBytes: json.length,
      jsonSha256: sha256(json),
    });
    expect(Object.keys(frozen)).toEqual(['ordinal', 'toolUseId', 'bytes', 'sha256', 'jsonBytes', 'jsonSha256']);
  });

  it('should keep rawSha256 and drop the raw bytes', () => {
    // Arrange
    const body = replaceNth(conversation([`${filler(BIG)}/END`]), '/END', '\\/END');
    const [block] = plan(body, { keepRecent: 0, minBytes: 0 });

    // Act
    const frozen = freezeBlock(block!);

    // Assert
    expect(Object.keys(frozen)).toEqual(['ordinal', 'toolUseId', 'bytes', 'sha256', 'jsonBytes', 'jsonSha256', 'rawSha256']);
    expect(frozen.rawSha256).toBe(block?.rawSha256);
  });
});
