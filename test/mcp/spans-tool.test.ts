import { describe, expect, it } from 'vitest';
import type { RestorableList, RestorableSpan } from '../../src/restore/list-restorable.js';
import { renderSpans } from '../../src/mcp/spans-tool.js';

const block = (n: number, extra: object = {}): RestorableList['conversations'][number]['blocks'][number] => ({
  sha256: String(n).repeat(64).slice(0, 64),
  bytes: 1000 + n,
  epoch: 1,
  ordinal: n,
  toolUseId: `toolu_${n}`,
  sealed: false,
  present: true,
  ...extra,
});
const LIST: RestorableList = {
  conversations: [
    {
      key: 'c'.repeat(64),
      agentId: null,
      firstPrompt: '<system-reminder>x</system-reminder> Fix the\nbug',
      lastLatchedAt: '2026-01-02T00:00:00.000Z',
      blocks: [block(1, { tool: 'Read', input: '/src/a.ts' }), block(2, { sealed: true })],
      spans: [],
      originals: [],
    },
    {
      key: 'd'.repeat(64),
      agentId: 'agent-1',
      firstPrompt: 'Older',
      lastLatchedAt: '2026-01-01T00:00:00.000Z',
      blocks: [block(3, { present: false })],
      spans: [],
      originals: [],
    },
  ],
  unreadable: ['e.json'],
};

describe('renderSpans', () => {
  it('should list every block under its conversation, newest first, with what is known of each', () => {
    const text = renderSpans(LIST, 100).content[0]!.text;
    expect(text).toBe(
      [
        'ctxshed: 3 blocks in 2 conversations (1 sealed), newest conversation first. restore takes a sha256 or its first 12+ hex digits.',
        '',
        `conversation cccccccccccc: "Fix the bug", last epoch 2026-01-02T00:00:00.000Z`,
        `  ${'1'.repeat(64)}  1001 bytes  epoch 1  Read /src/a.ts`,
        `  ${'2'.repeat(64)}  1002 bytes  epoch 1  tool unknown (toolu_2)  SEALED: not restorable`,
        '',
        `conversation dddddddddddd (subagent agent-1): "Older", last epoch 2026-01-01T00:00:00.000Z`,
        `  ${'3'.repeat(64)}  1003 bytes  epoch 1  tool unknown (toolu_3)  MISSING: not in the state directory`,
        'note: conversations/e.json does not read (ctxshed verify says why)',
        '',
      ].join('\n'),
    );
  });

  it('should stop at the limit and say how many more there are', () => {
    const text = renderSpans(LIST, 1).content[0]!.text;
    expect(text).toContain('2 more not shown; call spans with a larger limit (at most 1000).');
    expect(text).not.toContain('2'.repeat(64));
  });

  it("should list a shed conversation's spans: handle, bytes, epoch, messages, pins, and a missing one", () => {
    const span = (n: number, extra: Partial<RestorableSpan> = {}): RestorableSpan => ({
      sha256: String(n).repeat(64),
      bytes: 5000 + n,
      epoch: n,
      messages: 3,
      first: 1,
      last: 3,
      pins: 0,
      present: true,
      ...extra,
    });
    const shed: RestorableList = {
      conversations: [
        {
          key: 'f'.repeat(64),
          agentId: null,
          firstPrompt: 'Ship it',
          lastLatchedAt: '2026-01-03T00:00:00.000Z',
          blocks: [],
          spans: [span(1), span(2, { first: 5, last: 6, messages: 2, pins: 1, present: false })],
          originals: [],
        },
      ],
      unreadable: [],
    };
    expect(renderSpans(shed, 100).content[0]!.text).toBe(
      [
        'ctxshed: 2 shed spans in 1 conversation, newest conversation first. restore takes a sha256 or its first 12+ hex digits.',
        '',
        'conversation ffffffffffff: "Ship it", last epoch 2026-01-03T00:00:00.000Z',
        `  ${'1'.repeat(64)}  5001 bytes  epoch 1  shed span: 3 messages (1..3)`,
        `  ${'2'.repeat(64)}  5002 bytes  epoch 2  shed span: 2 messages (5..6), 1 goal pin  MISSING: not in the state directory`,
        '',
      ].join('\n'),
    );
    const both = renderSpans({ conversations: [...shed.conversations, ...LIST.conversations], unreadable: [] }, 3).content[0]!.text;
    expect(both.split('\n')[0]).toBe(
      'ctxshed: 3 blocks and 2 shed spans in 3 conversations (1 sealed), newest conversation first. restore takes a sha256 or its first 12+ hex digits.',
    );
    expect(both).toContain('2 more not shown');
  });
});
