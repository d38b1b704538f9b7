import { describe, expect, it } from 'vitest';
import { renderSpanMarkdown } from '../../../src/core/shed/render-span-markdown.js';
import { utf8 } from './shed-bodies.js';

const SHA = 'cd'.repeat(32);
const fragment = (...messages: unknown[]) => utf8(messages.map((m) => JSON.stringify(m)).join(',\n  '));

describe('renderSpanMarkdown', () => {
  it('should say who said what, each tool call with its input and each tool result', () => {
    const span = fragment(
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'look first', signature: 'xx' },
          { type: 'text', text: 'Reading.' },
          { type: 'tool_use', id: 't1', name: 'Read', input: { file_path: '/a.ts' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 't1', content: 'const a = 1;', is_error: true },
          { type: 'text', text: 'reminder' },
        ],
      },
    );

    const md = renderSpanMarkdown(span, SHA);

    expect(md).toBe(
      `# ctxshed span ${SHA}\n\n2 messages (${span.length} bytes) that ctxshed shed from a conversation, in order. The exact JSON is in ${SHA}.json next to this file.\n` +
        '\n## 1. assistant\n\nthinking:\n\n```\nlook first\n```\n\n```\nReading.\n```\n\ntool call `Read` (id t1), input:\n\n```json\n{\n  "file_path": "/a.ts"\n}\n```\n' +
        '\n## 2. user\n\ntool result for t1 (error):\n\n```\nconst a = 1;\n```\n\n```\nreminder\n```\n',
    );
  });

  it('should fence a text holding backticks in a longer fence, so it cannot end the fence', () => {
    const md = renderSpanMarkdown(fragment({ role: 'user', content: 'before\n```\n## 9. assistant\n````x' }), SHA);

    expect(md).toContain('\n`````\nbefore\n```\n## 9. assistant\n````x\n`````\n');
  });

  it('should describe images, redacted thinking, block contents and unknown blocks', () => {
    const md = renderSpanMarkdown(
      fragment(
        {
          role: 'assistant',
          content: [
            { type: 'redacted_thinking', data: 'zz' },
            { type: 'mystery', x: 1 },
          ],
        },
        {
          role: 'user',
          content: [
            {
              type: 'tool_result',
              tool_use_id: 't',
              content: [
                { type: 'text', text: 'a' },
                { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AAAA' } },
              ],
            },
          ],
        },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'u' }] },
      ),
      SHA,
    );

    expect(md).toContain('(redacted thinking)');
    expect(md).toContain('mystery block:');
    expect(md).toContain('(image, image/png, 4 characters of data)');
    expect(md).toContain('tool result for u:\n\n(no content)');
  });

  it('should not throw on bytes that are no messages', () => {
    expect(renderSpanMarkdown(utf8('{'), SHA)).toContain('do not read as messages');
    expect(renderSpanMarkdown(utf8('1, "x", null'), SHA)).toContain('## 1. unknown role');
  });
});
