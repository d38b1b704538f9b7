import { describe, expect, it } from 'vitest';
import { fieldOf, parsePartStub, renderPartStub, startsLikePartStub } from '../../src/core/part-stub.js';
import { GATEWAY_STUB_DIR } from '../../src/core/stub-paths.js';
import { utf8 } from './bodies.js';

const SHA = 'a'.repeat(64);
const RAW = 'b'.repeat(64);
const base = { ordinal: 0, toolUseId: 'toolu_1', bytes: 48213, sha256: SHA, jsonBytes: 48300, jsonSha256: RAW, messageIndex: 3, blockIndex: 1 };

describe('renderPartStub', () => {
  it('should name the field, the call and its main input, the size and the file', () => {
    // Act
    const stub = renderPartStub(
      { ...base, part: 'tool_input', path: ['input', 'content'], tool: 'Write', input: '/src/pay.ts', refetch: 'elided-file' },
      '/s/elided',
    );

    // Assert
    expect(stub).toBe(`[ctxshed: tool input moved out of the context; the content of Write "/src/pay.ts", 48213 bytes; read /s/elided/${SHA}.txt]`);
  });

  it('should name the restore tool when it is offered, a raw file when there is one, and quote an odd field', () => {
    // Act
    const stub = renderPartStub(
      { ...base, part: 'tool_input', path: ['input', 'my field'], tool: 'Edit', input: '', refetch: 'restore', rawSha256: RAW },
      '/s/elided',
    );

    // Assert
    expect(stub).toBe(
      `[ctxshed: tool input moved out of the context; the "my field" of Edit, 48213 bytes; read /s/elided/${SHA}.txt (or call ctxshed's restore tool with its sha256); exact original JSON in /s/elided/${RAW}.json]`,
    );
  });

  it("should say a text was the model's, and a gateway's stub should name the restore tool and no path", () => {
    // Act
    const text = renderPartStub({ ...base, part: 'assistant_text', path: ['text'], refetch: 'elided-file' }, '/s/elided');
    const gateway = renderPartStub({ ...base, part: 'assistant_text', path: ['text'], refetch: 'restore' }, GATEWAY_STUB_DIR);

    // Assert
    expect(text).toBe(`[ctxshed: assistant text moved out of the context; 48213 bytes; read /s/elided/${SHA}.txt]`);
    expect(gateway).toBe(`[ctxshed: assistant text moved out of the context; 48213 bytes; call ctxshed's restore tool with sha256 ${SHA}]`);
  });
});

describe('parsePartStub', () => {
  it('should read back every stub it renders, of either part and any route', () => {
    // Arrange
    const stubs = [
      renderPartStub(
        { ...base, part: 'tool_input', path: ['input', 'content'], tool: 'Write', input: 'a "quoted"\npath', refetch: 'restore', rawSha256: RAW },
        '/s/elided',
      ),
      renderPartStub({ ...base, part: 'tool_input', path: ['arguments'], tool: 'exec_command', input: '', refetch: 'elided-file' }, GATEWAY_STUB_DIR),
      renderPartStub({ ...base, part: 'assistant_text', path: ['text'], refetch: 'elided-file' }, '/s/elided'),
    ];

    // Act
    const parsed = stubs.map(parsePartStub);

    // Assert
    expect(parsed).toEqual([
      { part: 'tool_input', bytes: 48213, sha256: SHA, rawSha256: RAW },
      { part: 'tool_input', bytes: 48213, sha256: SHA },
      { part: 'assistant_text', bytes: 48213, sha256: SHA },
    ]);
  });

  it('should read nothing from text that only begins like a stub', () => {
    // Act / Assert
    expect(parsePartStub('[ctxshed: tool input moved out of the context; 12 bytes; read /x/y.txt]')).toBeUndefined();
    expect(parsePartStub('[ctxshed: tool result moved out of the context to save space; 1 bytes')).toBeUndefined();
    expect(startsLikePartStub(utf8('[ctxshed: assistant text moved out of the context; and more'))).toBe(true);
    expect(startsLikePartStub(utf8('[ctxshed: assistant'))).toBe(false);
  });
});

describe('fieldOf', () => {
  it('should name the field inside a Messages input, else the last key', () => {
    // Act / Assert
    expect(fieldOf(['input', 'edits', 0, 'new_string'])).toBe('edits.0.new_string');
    expect(fieldOf(['function', 'arguments'])).toBe('arguments');
    expect(fieldOf(['input'])).toBe('input');
  });
});
