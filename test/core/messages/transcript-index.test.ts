import { describe, expect, it } from 'vitest';
import {
  indexResumable,
  indexTranscript,
  resumeIndex,
  resumeOffset,
  toolResultsBefore,
  type IndexFailure,
  type ResumableIndex,
} from '../../../src/core/messages/transcript-index.js';
import { mustIndex, rawBytes, slice, toolResult, utf8 } from '../bodies.js';

function body(value: unknown): Uint8Array {
  return utf8(JSON.stringify(value));
}

function failure(bytes: Uint8Array): IndexFailure | 'indexed' {
  const outcome = indexTranscript(bytes);
  return outcome.kind === 'indexed' ? 'indexed' : outcome.reason;
}

const THINKING = { type: 'thinking', thinking: 'Let me read the file.', signature: 'EsQCCkYICxgCKkCiHauF2Q62eGbSzb4G+/==' };
const IMAGE = { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } };

describe('indexTranscript', () => {
  it('should index a minimal body: its messages span, one message and its string content', () => {
    // Arrange
    const bytes = utf8('{"model":"m","messages":[{"role":"user","content":"hi"}],"max_tokens":1}');

    // Act
    const index = mustIndex(bytes);

    // Assert
    expect(index.byteLength).toBe(bytes.length);
    expect(slice(bytes, index.messagesSpan)).toBe('[{"role":"user","content":"hi"}]');
    expect(index.messages).toHaveLength(1);
    expect(index.messages[0]?.role).toBe('user');
    expect(index.messages[0]?.content.kind).toBe('string');
    expect(slice(bytes, index.messages[0]!.content)).toBe('"hi"');
    expect(slice(bytes, index.messages[0]!)).toBe('{"role":"user","content":"hi"}');
    expect(index.messages[0]?.blocks).toEqual([]);
    expect(index.toolResults).toEqual([]);
  });

  it('should index an empty messages array', () => {
    // Arrange
    const bytes = body({ messages: [] });

    // Act
    const index = mustIndex(bytes);

    // Assert
    expect(index.messages).toEqual([]);
    expect(slice(bytes, index.messagesSpan)).toBe('[]');
  });

  it('should keep role "system" messages as messages, with string or block content', () => {
    // Arrange
    const bytes = body({
      messages: [
        { role: 'user', content: 'go' },
        { role: 'system', content: '<system-reminder>note</system-reminder>' },
        { role: 'system', content: [{ type: 'text', text: 'queued input' }] },
      ],
    });

    // Act
    const index = mustIndex(bytes);

    // Assert
    expect(index.messages.map((m) => [m.role, m.content.kind])).toEqual([
      ['user', 'string'],
      ['system', 'string'],
      ['system', 'array'],
    ]);
    expect(index.messages[2]?.blocks.map((b) => b.type)).toEqual(['text']);
  });

  it('should index every block of an assistant turn: thinking with signature, text, tool_use with its id, image', () => {
    // Arrange
    const blocks = [THINKING, { type: 'text', text: 'Reading.' }, { type: 'tool_use', id: 'toolu_A', name: 'Read', input: { file_path: '/a' } }, IMAGE];
    const bytes = body({
      messages: [
        { role: 'user', content: 'x' },
        { role: 'assistant', content: blocks },
      ],
    });

    // Act
    const index = mustIndex(bytes);

    // Assert
    const found = index.messages[1]!.blocks;
    expect(found.map((b) => [b.type, b.id])).toEqual([
      ['thinking', ''],
      ['text', ''],
      ['tool_use', 'toolu_A'],
      ['image', ''],
    ]);
    expect(found.map((b) => slice(bytes, b))).toEqual(blocks.map((b) => JSON.stringify(b)));
    expect(index.toolResults).toEqual([]);
  });

  it('should find the same things whatever the key order of body, messages and blocks', () => {
    // Arrange
    const inOrder = body({ model: 'm', messages: [{ role: 'user', content: [toolResult('t1', 'abc', { is_error: true })] }] });
    const reordered = utf8('{"messages":[{"content":[{"is_error":true,"content":"abc","type":"tool_result","tool_use_id":"t1"}],"role":"user"}],"model":"m"}');

    // Act
    const [a, b] = [mustIndex(inOrder), mustIndex(reordered)];

    // Assert
    for (const [bytes, index] of [
      [inOrder, a],
      [reordered, b],
    ] as const) {
      expect(index.messages[0]?.role).toBe('user');
      expect(index.toolResults).toHaveLength(1);
      expect(index.toolResults[0]).toMatchObject({ toolUseId: 't1', isError: true, textOnly: true, hasCacheControl: false });
      expect(slice(bytes, index.toolResults[0]!.content)).toBe('"abc"');
    }
  });

  it('should read keys and values spelled with escapes as their plain spelling', () => {
    // Arrange
    const bytes = utf8(
      '{"m\\u0065ssages":[{"r\\u006fle":"us\\u0065r","c\\u006Fntent":[{"\\u0074ype":"tool\\u005fresult","tool_use_\\u0069d":"toolu_\\u00e9","content":"x"}]}]}',
    );

    // Act
    const index = mustIndex(bytes);

    // Assert
    expect(index.messages[0]?.role).toBe('user');
    expect(index.messages[0]?.blocks[0]?.type).toBe('tool_result');
    expect(index.toolResults[0]?.toolUseId).toBe('toolu_é');
  });

  it('should give the same spans relative to the tokens when the body is pretty-printed', () => {
    // Arrange
    const value = { model: 'm', messages: [{ role: 'user', content: [toolResult('t1', 'abc'), toolResult('t2', [{ type: 'text', text: 'd' }])] }] };
    const bytes = utf8(JSON.stringify(value, null, 2).replace(/\n/g, '\r\n\t'));

    // Act
    const index = mustIndex(bytes);

    // Assert
    expect(index.toolResults.map((t) => slice(bytes, t.content).replace(/\s/g, ''))).toEqual(['"abc"', '[{"type":"text","text":"d"}]']);
    expect(slice(bytes, index.messagesSpan).startsWith('[')).toBe(true);
    expect(slice(bytes, index.messagesSpan).endsWith(']')).toBe(true);
  });

  it.each([
    ['"messages" twice at the top', '{"messages":[],"messages":[]}'],
    ['"role" twice', '{"messages":[{"role":"user","role":"assistant","content":"x"}]}'],
    ['"content" twice in a message', '{"messages":[{"role":"user","content":"x","content":"y"}]}'],
    ['"type" twice in a block', '{"messages":[{"role":"user","content":[{"type":"text","type":"tool_result","text":"x"}]}]}'],
    ['"type" and "\\u0074ype"', '{"messages":[{"role":"user","content":[{"type":"text","\\u0074ype":"text","text":"x"}]}]}'],
    ['"tool_use_id" twice', '{"messages":[{"role":"user","content":[{"type":"tool_result","tool_use_id":"a","tool_use_id":"b"}]}]}'],
    ['"content" twice in a tool_result', '{"messages":[{"role":"user","content":[{"type":"tool_result","tool_use_id":"a","content":"x","content":"y"}]}]}'],
    ['"is_error" twice', '{"messages":[{"role":"user","content":[{"type":"tool_result","tool_use_id":"a","is_error":false,"is_error":true}]}]}'],
    ['"cache_control" twice', '{"messages":[{"role":"user","content":[{"type":"text","text":"x","cache_control":{},"cache_control":{}}]}]}'],
    ['"id" twice in a tool_use', '{"messages":[{"role":"assistant","content":[{"type":"tool_use","id":"a","id":"b","name":"R","input":{}}]}]}'],
  ])('should refuse %s as duplicate_key', (_name, text) => {
    // Arrange
    const bytes = utf8(text);

    // Act
    const reason = failure(bytes);

    // Assert
    expect(reason).toBe('duplicate_key');
  });

  it('should accept duplicates of keys that decide nothing for the rewrite', () => {
    // Arrange
    const bytes = utf8(
      '{"model":"a","messages":[{"role":"user","content":[{"type":"tool_use","id":"t","name":"A","name":"B","input":{}}],"x":1,"x":2}],"y":1,"y":2}',
    );

    // Act
    const reason = failure(bytes);

    // Assert
    expect(reason).toBe('indexed');
  });

  it.each([
    ['a top-level array', '[{"messages":[]}]'],
    ['a top-level string', '"messages"'],
    ['a top-level number', '42'],
    ['an object without "messages"', '{"model":"m","prompt":"hi"}'],
    ['"messages" as an object', '{"messages":{}}'],
    ['"messages" as a string', '{"messages":"hi"}'],
    ['"messages" as null', '{"messages":null}'],
    ['a message that is a string', '{"messages":["hi"]}'],
    ['a message without role', '{"messages":[{"content":"hi"}]}'],
    ['a message without content', '{"messages":[{"role":"user"}]}'],
    ['"messages" only nested, not at the top', '{"metadata":{"messages":[]}}'],
  ])('should refuse %s as not_messages_body', (_name, text) => {
    // Arrange
    const bytes = utf8(text);

    // Act
    const reason = failure(bytes);

    // Assert
    expect(reason).toBe('not_messages_body');
  });

  it.each([
    ['garbage', utf8('hello')],
    ['an empty body', utf8('')],
    ['a truncated body', utf8('{"messages":[{"role":"user","content":"hi"}')],
    ['trailing bytes', utf8('{"messages":[]}{}')],
    ['nesting deeper than 512', utf8(`{"messages":[],"x":${'['.repeat(600)}${']'.repeat(600)}}`)],
    ['a gzip header', rawBytes([0x1f, 0x8b, 0x08, 0x00])],
  ])('should refuse %s as not_json', (_name, bytes) => {
    // Arrange: nothing else.

    // Act
    const reason = failure(bytes);

    // Assert
    expect(reason).toBe('not_json');
  });

  it.each([
    ['after "messages":[', '{"messages":['],
    ["inside a message's content array", '{"messages":[{"role":"user","content":['],
    ['after a number content', '{"messages":[{"role":"user","content":5'],
    ['after a second "messages" key', '{"messages":[],"messages":'],
    ['inside a tool_result block', '{"messages":[{"role":"user","content":[{"type":"tool_result","tool_use_id":"t","content":"x"'],
  ])('should call a body truncated %s not_json, not a shape it cannot know', (_name, text) => {
    // Arrange: a body cut off mid-upload; the shape checks must not hide that it is not JSON.
    const bytes = utf8(text);

    // Act
    const reason = failure(bytes);

    // Assert
    expect(reason).toBe('not_json');
  });

  it('should index a body whose unread strings hold raw control bytes or bad escapes, leaving them to the upstream', () => {
    // Arrange
    const bytes = rawBytes('{"model":"m","messages":[{"role":"user","content":"a', [0x0a], 'b\\qc"}],"system":"\\x"}');

    // Act
    const index = mustIndex(bytes);

    // Assert
    expect(index.messages[0]?.content.kind).toBe('string');
  });

  it('should not read a key or type spelled with a bad escape as the word it resembles', () => {
    // Arrange
    const badKey = utf8('{"messages":[{"role":"user","content":[{"typ\\e":"tool_result","tool_use_id":"t"}]}]}');
    const badType = utf8('{"messages":[{"role":"user","content":[{"type":"tool_resul\\t","tool_use_id":"t"}]}]}');

    // Act
    const outcomes = [failure(badKey), mustIndex(badType).toolResults.length];

    // Assert
    expect(outcomes).toEqual(['unknown_shape', 0]);
  });

  it.each([
    ['content as a number', '{"messages":[{"role":"user","content":42}]}'],
    ['content as null', '{"messages":[{"role":"user","content":null}]}'],
    ['content as an object', '{"messages":[{"role":"user","content":{"type":"text"}}]}'],
    ['a block that is a string', '{"messages":[{"role":"user","content":["hi"]}]}'],
    ['a block without type', '{"messages":[{"role":"user","content":[{"text":"hi"}]}]}'],
    ['a block whose type is not a string', '{"messages":[{"role":"user","content":[{"type":1}]}]}'],
    ['a tool_result without tool_use_id', '{"messages":[{"role":"user","content":[{"type":"tool_result","content":"x"}]}]}'],
    ['a tool_result whose tool_use_id is a number', '{"messages":[{"role":"user","content":[{"type":"tool_result","tool_use_id":7}]}]}'],
    ['a role that is not a string', '{"messages":[{"role":1,"content":"x"}]}'],
  ])('should refuse %s as unknown_shape', (_name, text) => {
    // Arrange
    const bytes = utf8(text);

    // Act
    const reason = failure(bytes);

    // Assert
    expect(reason).toBe('unknown_shape');
  });

  it('should give tool_results ordinals across messages in document order, with their message and block', () => {
    // Arrange
    const bytes = body({
      messages: [
        { role: 'user', content: 'go' },
        { role: 'user', content: [{ type: 'text', text: 'a' }, toolResult('t0', 'r0'), toolResult('t1', 'r1')] },
        { role: 'assistant', content: [{ type: 'text', text: 'ok' }] },
        { role: 'user', content: [toolResult('t2', 'r2'), { type: 'text', text: 'b' }, toolResult('t3', 'r3')] },
      ],
    });

    // Act
    const index = mustIndex(bytes);

    // Assert
    expect(index.toolResults.map((t) => [t.ordinal, t.messageIndex, t.blockIndex, t.toolUseId])).toEqual([
      [0, 1, 1, 't0'],
      [1, 1, 2, 't1'],
      [2, 3, 0, 't2'],
      [3, 3, 2, 't3'],
    ]);
    expect(index.toolResults.map((t) => slice(bytes, t))).toEqual(['r0', 'r1', 'r2', 'r3'].map((r, i) => JSON.stringify(toolResult(`t${i}`, r))));
    expect(index.messages[3]?.blocks.map((b) => b.id)).toEqual(['t2', '', 't3']);
  });

  it('should locate string content and its one text span', () => {
    // Arrange
    const bytes = body({ messages: [{ role: 'user', content: [toolResult('t', 'line 1\nline "2"')] }] });

    // Act
    const content = mustIndex(bytes).toolResults[0]!.content;

    // Assert
    expect(content.kind).toBe('string');
    expect(slice(bytes, content)).toBe('"line 1\\nline \\"2\\""');
    expect(content.texts).toEqual([{ start: content.start, end: content.end }]);
  });

  it('should locate array content and the text token of each text block', () => {
    // Arrange
    const bytes = body({
      messages: [
        {
          role: 'user',
          content: [
            toolResult('t', [
              { type: 'text', text: 'one' },
              { text: 'two', type: 'text' },
            ]),
          ],
        },
      ],
    });

    // Act
    const result = mustIndex(bytes).toolResults[0]!;

    // Assert
    expect(result.content.kind).toBe('array');
    expect(slice(bytes, result.content)).toBe('[{"type":"text","text":"one"},{"text":"two","type":"text"}]');
    expect(result.content.texts.map((s) => slice(bytes, s))).toEqual(['"one"', '"two"']);
    expect(result.textOnly).toBe(true);
  });

  it('should mark content absent when the key is missing, and other for null, numbers, objects and booleans', () => {
    // Arrange
    const bytes = body({
      messages: [
        { role: 'user', content: [toolResult('a', undefined), toolResult('b', null), toolResult('c', 3), toolResult('d', { x: 1 }), toolResult('e', false)] },
      ],
    });

    // Act
    const results = mustIndex(bytes).toolResults;

    // Assert
    expect(results.map((r) => [r.content.kind, r.textOnly])).toEqual([
      ['absent', false],
      ['other', false],
      ['other', false],
      ['other', false],
      ['other', false],
    ]);
    expect(results[0]?.content).toMatchObject({ start: -1, end: -1, texts: [] });
    expect(slice(bytes, results[3]!.content)).toBe('{"x":1}');
  });

  it('should read is_error true, false and absent', () => {
    // Arrange
    const bytes = body({
      messages: [{ role: 'user', content: [toolResult('a', 'x', { is_error: true }), toolResult('b', 'x', { is_error: false }), toolResult('c', 'x')] }],
    });

    // Act
    const results = mustIndex(bytes).toolResults;

    // Assert
    expect(results.map((r) => r.isError)).toEqual([true, false, false]);
  });

  it('should see cache_control on the block and inside its content, and nowhere else', () => {
    // Arrange
    const cc = { type: 'ephemeral' };
    const bytes = body({
      messages: [
        {
          role: 'user',
          content: [
            toolResult('block', 'x', { cache_control: cc }),
            toolResult('inside', [{ type: 'text', text: 'x', cache_control: cc }]),
            toolResult('none', 'x'),
            { type: 'text', text: 'y', cache_control: cc },
          ],
        },
      ],
    });

    // Act
    const results = mustIndex(bytes).toolResults;

    // Assert
    expect(results.map((r) => [r.toolUseId, r.hasCacheControl])).toEqual([
      ['block', true],
      ['inside', true],
      ['none', false],
    ]);
  });

  it.each([
    ['a string', 'text', true],
    ['an empty string', '', true],
    [
      'text blocks',
      [
        { type: 'text', text: 'a' },
        { type: 'text', text: 'b' },
      ],
      true,
    ],
    ['an empty array', [], false],
    ['a text block with cache_control', [{ type: 'text', text: 'a', cache_control: { type: 'ephemeral' } }], false],
    ['a text block with citations', [{ type: 'text', text: 'a', citations: [] }], false],
    ['an image', [IMAGE], false],
    ['text and an image', [{ type: 'text', text: 'a' }, IMAGE], false],
    ['a text block whose text is not a string', [{ type: 'text', text: 1 }], false],
    ['a text block without text', [{ type: 'text' }], false],
    ['a bare string in the array', ['a'], false],
    ['null', null, false],
  ])('should say content of %s is textOnly = %s', (_name, content, expected) => {
    // Arrange
    const bytes = body({ messages: [{ role: 'user', content: [toolResult('t', content)] }] });

    // Act
    const result = mustIndex(bytes).toolResults[0]!;

    // Assert
    expect(result.textOnly).toBe(expected);
  });

  it('should never throw, whatever the bytes', () => {
    // Arrange
    const inputs = [
      rawBytes([0xff, 0xfe, 0x00]),
      utf8('{'),
      utf8('{"messages":['),
      utf8('{"messages":[{'),
      utf8('{"messages":[{"role":'),
      utf8('{"messages":[{"role":"user","content":[{"type":"tool_result","tool_use_id":"\\ud800"}]}]}'),
      rawBytes('{"messages":[{"role":"', [0xc3], '","content":"x"}]}'),
      utf8('{"\\u":1}'),
      utf8('['.repeat(5000)),
    ];

    // Act
    const outcomes = inputs.map((bytes) => indexTranscript(bytes).kind);

    // Assert
    expect(outcomes.every((k) => k === 'indexed' || k === 'failed')).toBe(true);
  });
});

/** A body's resumable index (it must index). */
function resumable(bytes: Uint8Array): ResumableIndex {
  const outcome = indexResumable(bytes);
  if (outcome.kind !== 'indexed') throw new Error(`expected the body to index: ${outcome.reason}`);
  return outcome.resumable;
}

const GROWN = [
  { role: 'user', content: 'go' },
  { role: 'assistant', content: [{ type: 'tool_use', id: 't0', name: 'Read', input: {} }] },
  { role: 'user', content: [toolResult('t0', 'zero')] },
  { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'Read', input: {} }] },
  { role: 'user', content: [toolResult('t1', 'one'), { type: 'text', text: 'more', cache_control: { type: 'ephemeral' } }] },
];

describe('indexResumable', () => {
  it('should give the index indexTranscript gives, and the model seen before "messages"', () => {
    // Arrange
    const bytes = body({ model: 'first', messages: GROWN, max_tokens: 1, tools: [] });

    // Act
    const outcome = indexResumable(bytes);

    // Assert
    expect(outcome.kind === 'indexed' && outcome.resumable.index).toEqual(mustIndex(bytes));
    expect(outcome.kind === 'indexed' && outcome.resumable.modelBeforeMessages).toBe('first');
  });

  it('should take a model given only after "messages" as the body\'s model, but not as the one a resume starts from', () => {
    // Arrange
    const bytes = utf8('{"messages":[],"model":"b"}');

    // Act
    const { index, modelBeforeMessages, modelKeyBeforeMessages } = resumable(bytes);

    // Assert
    expect(index.model).toBe('b');
    expect(modelBeforeMessages).toBeUndefined();
    expect(modelKeyBeforeMessages).toBe(false);
  });

  it.each([
    ['before and after "messages"', '{"model":"a","messages":[],"model":"b"}'],
    ['twice before "messages"', '{"model":"a","model":"b","messages":[]}'],
    ['the same twice', '{"model":"a","messages":[],"model":"a"}'],
    ['a string and a number', '{"model":7,"messages":[],"model":"b"}'],
  ])('should refuse a second "model" key (%s): the API reads the last, the window the first', (_name, text) => {
    // Act
    const outcome = indexTranscript(utf8(text));

    // Assert
    expect(outcome).toMatchObject({ kind: 'failed', reason: 'duplicate_key' });
  });

  it('should fail as indexTranscript fails', () => {
    // Arrange
    const bytes = utf8('{"messages":[{"role":"user"}]}');

    // Act
    const outcome = indexResumable(bytes);

    // Assert
    expect(outcome).toEqual(indexTranscript(bytes));
  });
});

describe('resumeIndex', () => {
  it.each([0, 1, 2, 3, 4, 5])('should resume after %i messages of an earlier body to the full index of the grown one', (count) => {
    // Arrange: the next request drops the last message's cache_control and adds a turn.
    const last = GROWN[4]!;
    const grown = [
      ...GROWN.slice(0, 4),
      { ...last, content: [toolResult('t1', 'one'), { type: 'text', text: 'more' }] },
      { role: 'assistant', content: 'done' },
    ];
    const earlier = resumable(body({ model: 'm', messages: GROWN, max_tokens: 5 }));
    const next = body({ model: 'm', messages: grown, max_tokens: 6 });
    const shared = count < 5 ? count : 4; // the last message changed: at most 4 are shared

    // Act
    const resumed = resumeIndex(next, earlier, shared);

    // Assert
    expect(resumed?.index).toEqual(mustIndex(next));
    expect(resumed?.modelBeforeMessages).toBe('m');
  });

  it('should find a model key after "messages" on the resumed part', () => {
    // Arrange
    const earlier = resumable(utf8('{"messages":[{"role":"user","content":"x"}]}'));
    const next = utf8('{"messages":[{"role":"user","content":"x"}],"model":"b"}');

    // Act
    const resumed = resumeIndex(next, earlier, 1);

    // Assert
    expect(resumed?.index.model).toBe('b');
  });

  it.each([
    ['string', '{"model":"a","messages":[{"role":"user","content":"x"}]}'],
    ['number', '{"model":7,"messages":[{"role":"user","content":"x"}]}'],
  ])('should give up on a second "model" key after "messages" where a %s model came before, as the full scan does', (_name, first) => {
    // Arrange
    const earlier = resumable(utf8(first));
    const next = utf8(`${first.slice(0, -1)},"model":"b"}`);

    // Act
    const resumed = resumeIndex(next, earlier, 1);

    // Assert
    expect(resumed).toBeUndefined();
    expect(indexTranscript(next)).toMatchObject({ kind: 'failed', reason: 'duplicate_key' });
  });

  it.each([
    ['a rest that is not JSON', '{"model":"a","messages":[{"role":"user","content":"x"},]}'],
    ['a second "messages" key', '{"model":"a","messages":[{"role":"user","content":"x"}],"messages":[]}'],
    ['trailing bytes', '{"model":"a","messages":[{"role":"user","content":"x"}]} x'],
  ])('should give up on %s (the full scan names the fault)', (_name, text) => {
    // Arrange
    const earlier = resumable(utf8('{"model":"a","messages":[{"role":"user","content":"x"}]}'));

    // Act
    const resumed = resumeIndex(utf8(text), earlier, 1);

    // Assert
    expect(resumed).toBeUndefined();
  });

  it.each([-1, 2, 0.5])('should refuse a message count of %d the earlier index does not have', (count) => {
    // Arrange
    const bytes = utf8('{"messages":[{"role":"user","content":"x"}]}');

    // Act
    const resumed = resumeIndex(bytes, resumable(bytes), count);

    // Assert
    expect(resumed).toBeUndefined();
  });
});

describe('resumeOffset', () => {
  it('should be the "[" of messages before any message, else the end of the last shared one', () => {
    // Arrange
    const index = mustIndex(body({ messages: GROWN }));

    // Act
    const offsets = [0, 1, 5].map((n) => resumeOffset(index, n));

    // Assert
    expect(offsets).toEqual([index.messagesSpan.start, index.messages[0]!.end, index.messages[4]!.end]);
  });
});

describe('toolResultsBefore', () => {
  it('should count the tool results in the first messages', () => {
    // Arrange
    const index = mustIndex(body({ messages: GROWN }));

    // Act
    const counts = [0, 2, 3, 4, 5].map((n) => toolResultsBefore(index, n));

    // Assert
    expect(counts).toEqual([0, 0, 1, 1, 2]);
  });
});
