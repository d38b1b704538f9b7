import { describe, expect, it } from 'vitest';
import { conversationKey, conversationKeyOf, firstPromptExcerpt } from '../../src/core/conversation-key.js';
import { findFirstMessage } from '../../src/core/first-message.js';
import { mustIndex, sha256, utf8 } from './bodies.js';

const CC = { type: 'ephemeral' };

function body(messages: unknown[]): Uint8Array {
  return utf8(JSON.stringify({ model: 'm', messages }));
}

function keyOf(bytes: Uint8Array, agentId?: string): string | undefined {
  return conversationKey(bytes, mustIndex(bytes), agentId, sha256);
}

const FIRST = {
  role: 'user',
  content: [
    { type: 'text', text: '<system-reminder>ctx</system-reminder>' },
    { type: 'text', text: 'Fix the bug.' },
  ],
};

describe('conversationKey', () => {
  it('should be 64 lowercase hex characters', () => {
    // Arrange
    const bytes = body([FIRST]);

    // Act
    const key = keyOf(bytes);

    // Assert
    expect(key).toMatch(/^[0-9a-f]{64}$/);
  });

  it('should stay the same as the transcript grows', () => {
    // Arrange
    const short = body([FIRST]);
    const long = body([FIRST, { role: 'assistant', content: [{ type: 'text', text: 'ok' }] }, { role: 'user', content: 'more' }]);

    // Act
    const keys = [keyOf(short), keyOf(long)];

    // Assert
    expect(keys[0]).toBe(keys[1]);
  });

  it('should ignore cache_control anywhere in the first message', () => {
    // Arrange
    const withBreakpoint = body([{ role: 'user', content: [FIRST.content[0], { ...FIRST.content[1], cache_control: CC }] }]);

    // Act
    const keys = [keyOf(body([FIRST])), keyOf(withBreakpoint)];

    // Assert
    expect(keys[0]).toBe(keys[1]);
  });

  it('should treat a lone text block, with or without cache_control, like the plain string', () => {
    // Arrange
    const asString = body([{ role: 'user', content: 'Fix the bug.' }]);
    const asBlock = body([{ role: 'user', content: [{ type: 'text', text: 'Fix the bug.' }] }]);
    const asCachedBlock = body([{ role: 'user', content: [{ type: 'text', text: 'Fix the bug.', cache_control: CC }] }]);

    // Act
    const keys = new Set([keyOf(asString), keyOf(asBlock), keyOf(asCachedBlock)]);

    // Assert
    expect(keys.size).toBe(1);
  });

  it('should not treat two text blocks, or a text block with other keys, like a string', () => {
    // Arrange
    const asString = keyOf(body([{ role: 'user', content: 'ab' }]));
    const twoBlocks = keyOf(
      body([
        {
          role: 'user',
          content: [
            { type: 'text', text: 'a' },
            { type: 'text', text: 'b' },
          ],
        },
      ]),
    );
    const withCitations = keyOf(body([{ role: 'user', content: [{ type: 'text', text: 'ab', citations: [] }] }]));

    // Act
    const keys = new Set([asString, twoBlocks, withCitations]);

    // Assert
    expect(keys.size).toBe(3);
  });

  it('should ignore key order and whitespace in the first message', () => {
    // Arrange
    const compact = utf8('{"messages":[{"role":"user","content":[{"type":"text","text":"hi"},{"type":"text","text":"there"}]}]}');
    const spaced = utf8('{ "messages" : [ { "content" : [ { "text" : "hi" , "type" : "text" } , {"text":"there","type":"text"} ] , "role" : "user" } ] }');

    // Act
    const keys = [keyOf(compact), keyOf(spaced)];

    // Assert
    expect(keys[0]).toBe(keys[1]);
  });

  it('should change with the agent id header', () => {
    // Arrange
    const bytes = body([FIRST]);

    // Act
    const keys = [keyOf(bytes), keyOf(bytes, 'a1b2c3d4e5f6a7b8c'), keyOf(bytes, 'ffffffffffffffff0')];

    // Assert
    expect(new Set(keys).size).toBe(3);
  });

  it('should change with the session id header when one is sent, and keep the old key without it', () => {
    // Arrange
    const bytes = body([FIRST]);
    const index = mustIndex(bytes);

    // Act
    const keys = [
      conversationKey(bytes, index, undefined, sha256),
      conversationKey(bytes, index, undefined, sha256, 'session-a'),
      conversationKey(bytes, index, undefined, sha256, 'session-b'),
      conversationKey(bytes, index, 'agent', sha256, 'session-a'),
    ];

    // Assert
    expect(new Set(keys).size).toBe(4);
    expect(conversationKey(bytes, index, undefined, sha256, 'session-a')).toBe(keys[1]);
  });

  it("should change with the first message's text or role", () => {
    // Arrange
    const keys = [
      keyOf(body([{ role: 'user', content: 'Fix the bug.' }])),
      keyOf(body([{ role: 'user', content: 'Fix the bug!' }])),
      keyOf(body([{ role: 'system', content: 'Fix the bug.' }])),
    ];

    // Act
    const distinct = new Set(keys);

    // Assert
    expect(distinct.size).toBe(3);
  });

  it('should be undefined for a body without messages', () => {
    // Arrange
    const bytes = body([]);

    // Act
    const key = keyOf(bytes);

    // Assert
    expect(key).toBeUndefined();
  });
});

describe('conversationKeyOf', () => {
  it("should give, from the first message's span alone, the key conversationKey gives from the index", () => {
    // Arrange
    const bytes = body([FIRST, { role: 'assistant', content: 'ok' }]);
    const span = findFirstMessage(bytes);

    // Act
    const key = conversationKeyOf(bytes, span!, 'agent-1', sha256);

    // Assert
    expect(key).toBe(keyOf(bytes, 'agent-1'));
  });

  it('should throw when the span is not valid JSON (its callers catch that)', () => {
    // Arrange
    const bytes = utf8('{"messages":[{"role":"user","content":"\\x"}]}');
    const span = findFirstMessage(bytes);

    // Act
    const act = () => conversationKeyOf(bytes, span!, undefined, sha256);

    // Assert
    expect(act).toThrow(SyntaxError);
  });
});

describe('firstPromptExcerpt', () => {
  it('should give a string prompt with its whitespace flattened', () => {
    // Arrange
    const bytes = body([{ role: 'user', content: '  Fix\n\tthe   bug.  ' }]);

    // Act
    const excerpt = firstPromptExcerpt(bytes, mustIndex(bytes));

    // Assert
    expect(excerpt).toBe('Fix the bug.');
  });

  it('should join the texts of text blocks and skip other blocks', () => {
    // Arrange
    const bytes = body([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'one' },
          { type: 'image', source: {} },
          { type: 'text', text: 'two' },
        ],
      },
    ]);

    // Act
    const excerpt = firstPromptExcerpt(bytes, mustIndex(bytes));

    // Assert
    expect(excerpt).toBe('one two');
  });

  it('should cut a long prompt to max characters, ending with an ellipsis', () => {
    // Arrange
    const bytes = body([{ role: 'user', content: 'x'.repeat(300) }]);

    // Act
    const excerpts = [firstPromptExcerpt(bytes, mustIndex(bytes)), firstPromptExcerpt(bytes, mustIndex(bytes), 10)];

    // Assert
    expect(excerpts[0]).toBe(`${'x'.repeat(199)}…`);
    expect(excerpts[1]).toBe(`${'x'.repeat(9)}…`);
  });

  it('should be empty without messages', () => {
    // Arrange
    const bytes = body([]);

    // Act
    const excerpt = firstPromptExcerpt(bytes, mustIndex(bytes));

    // Assert
    expect(excerpt).toBe('');
  });
});

describe('firstPromptExcerpt on a real first request', () => {
  it("should show the person's prompt, not Claude Code's reminders before it", async () => {
    const { firstPromptExcerpt } = await import('../../src/core/conversation-key.js');
    const { indexTranscript } = await import('../../src/core/messages/transcript-index.js');
    const fs = await import('node:fs');
    const body = fs.readFileSync(new URL('../fixtures/real/01-main-first.json', import.meta.url));
    const indexed = indexTranscript(body);
    if (indexed.kind !== 'indexed') throw new Error('fixture does not index');

    const excerpt = firstPromptExcerpt(body, indexed.index);

    expect(excerpt).toMatch(/^Please look around this project/);
    expect(excerpt).not.toContain('system-reminder');
  });
});
