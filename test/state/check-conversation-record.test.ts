import { describe, expect, it } from 'vitest';
import { checkConversationRecord } from '../../src/state/check-conversation-record.js';
import { blockFor, epochOf, keyOf, recordOf, shedEpochOf } from './fixtures/state-fixtures.js';

const KEY = keyOf('a');
const b0 = blockFor('zero', 0).block;
const b1 = blockFor('one', 1).block;
const GOOD = recordOf(KEY, [epochOf(1, [b0]), epochOf(2, [b1])]);

/** GOOD as plain JSON data, with `edit` applied. */
function edited(edit: (record: Record<string, any>) => void): unknown {
  const copy = JSON.parse(JSON.stringify(GOOD)) as Record<string, any>;
  edit(copy);
  return copy;
}

describe('checkConversationRecord', () => {
  it('should find nothing wrong with a good record', () => {
    expect(checkConversationRecord(GOOD, KEY)).toEqual([]);
    expect(checkConversationRecord(recordOf(KEY, []), KEY)).toEqual([]);
  });

  it('should accept shed epochs whose spans follow one another, and refuse one that reaches back', () => {
    const span = (first: number, last: number) => ({ first, last, sha256: 'c'.repeat(64), bytes: 100, pins: [] });
    const shedAt = (n: number, first: number, last: number) => shedEpochOf(n, span(first, last));
    const shed = recordOf(KEY, [shedAt(1, 1, 8), shedAt(2, 9, 20)]);
    const back = recordOf(KEY, [shedAt(1, 1, 8), shedAt(2, 5, 20)]);

    expect(checkConversationRecord(shed, KEY)).toEqual([]);
    expect(checkConversationRecord(back, KEY)).toEqual(['epoch #2: span first is not a message ordinal after 8']);
  });

  it("should refuse an unknown kind, a gate that is no object, and items of another kind than the epoch's", () => {
    const span = { first: 1, last: 8, sha256: 'c'.repeat(64), bytes: 100, pins: [] };

    expect(checkConversationRecord(recordOf(KEY, [{ ...epochOf(1, []), kind: 'trim' }]), KEY)).toEqual(['epoch #1: kind "trim" is not an epoch kind\'s tag']);
    expect(checkConversationRecord(recordOf(KEY, [{ ...epochOf(1, []), gate: 3 as never }]), KEY)).toEqual(['epoch #1: gate is not an object']);
    expect(checkConversationRecord(recordOf(KEY, [{ ...epochOf(1, []), items: { tool_results: [], span: [span] } }]), KEY)).toEqual([
      "epoch #1: items.span: a tool_results epoch holds its own kind's items only, and those that go with any epoch",
    ]);
    expect(checkConversationRecord(recordOf(KEY, [{ ...epochOf(1, []), kind: 'span' }]), KEY)).toEqual([
      "epoch #1: items.tool_results: a span epoch holds its own kind's items only, and those that go with any epoch",
      'epoch #1: items has no span list',
    ]);
    expect(checkConversationRecord(recordOf(KEY, [{ ...epochOf(1, []), items: 3 as never }]), KEY)).toEqual(['epoch #1: items is not an object']);
    expect(checkConversationRecord(recordOf(KEY, [{ ...epochOf(1, []), items: { tool_results: 3 as never } }]), KEY)).toEqual([
      'epoch #1: items.tool_results is not an array',
    ]);
  });

  it('should accept one span on a shed epoch, and a prefix_check trigger on a thinking_only epoch only', () => {
    const span = { first: 1, last: 8, sha256: 'c'.repeat(64), bytes: 100, pins: [] };
    const shed = shedEpochOf(1, span);

    expect(checkConversationRecord(recordOf(KEY, [{ ...shed, items: { span: [span, { ...span, first: 9, last: 10 }] } }]), KEY)).toEqual([
      'epoch #1: items.span holds 2 spans, not one',
    ]);
    expect(checkConversationRecord(recordOf(KEY, [epochOf(1, [b0]), { ...epochOf(2, [b1]), trigger: 'prefix_check' }]), KEY)).toEqual([
      'epoch #2: a prefix_check epoch is a thinking_only one, and only it',
    ]);
    const correction = { ...epochOf(2, []), kind: 'thinking_only', items: { thinking_only: [] } };
    expect(checkConversationRecord(recordOf(KEY, [epochOf(1, [b0]), { ...correction, trigger: 'threshold' as const }]), KEY)).toEqual([
      'epoch #2: a thinking_only epoch has the trigger prefix_check, not "threshold"',
    ]);
    expect(checkConversationRecord(recordOf(KEY, [{ ...shed, trigger: 'command' }]), KEY)).toEqual([
      'epoch #1: a span epoch is never latched by a command (ctxshed elide)',
    ]);
  });

  it('should accept removed thinking blocks and a learned prefix check, and refuse bad ones', () => {
    const t = (ordinal: number, more: Record<string, unknown> = {}) => ({
      ordinal,
      messageIndex: 3,
      blockIndex: 0,
      type: 'thinking',
      jsonBytes: 80,
      sha256: 'd'.repeat(64),
      ...more,
    });
    const removing = (n: number, list: unknown[]) => ({ ...epochOf(n, []), items: { tool_results: [], thinking_only: list as never } });
    const good = {
      ...recordOf(KEY, [
        removing(1, [t(1), t(2)]),
        { ...epochOf(2, []), kind: 'thinking_only', trigger: 'prefix_check' as const, items: { thinking_only: [t(3)] as never } },
      ]),
      prefixCheck: { model: 'claude-opus-5-5', learnedAt: '2026-12-01T15:00:00.000Z' },
    };

    expect(checkConversationRecord(good, KEY)).toEqual([]);
    expect(checkConversationRecord(recordOf(KEY, [removing(1, [t(2), t(1, { type: 'text', jsonBytes: 0 })])]), KEY)).toEqual([
      'epoch #1 thinking 1: blocks are not in ordinal order',
      'epoch #1 thinking 1: type is not "thinking" or "redacted_thinking"',
      'epoch #1 thinking 1: jsonBytes is not a positive integer',
    ]);
    expect(checkConversationRecord(recordOf(KEY, [removing(1, [t(1)]), removing(2, [t(1)])]), KEY)).toEqual([
      'epoch #2 thinking 0: ordinal 1 is already removed by an earlier epoch',
    ]);
    expect(checkConversationRecord({ ...recordOf(KEY, []), prefixCheck: { model: 1, learnedAt: 'x' } }, KEY)).toEqual([
      'prefixCheck.model is not a string',
      'prefixCheck.learnedAt is not an ISO-8601 time',
    ]);
  });

  it('should accept a string agentId and a block with rawSha256', () => {
    const value = edited((r) => {
      r['agentId'] = 'agent-7';
      r['epochs'][0].items.tool_results[0].rawSha256 = 'b'.repeat(64);
    });
    expect(checkConversationRecord(value, KEY)).toEqual([]);
  });

  it('should accept a version 3 epoch: labelled blocks and a ledger', () => {
    const value = edited((r) => {
      const epoch = r['epochs'][1];
      epoch.policy.version = 3;
      Object.assign(epoch.items.tool_results[0], { label: 'drop', rule: 'superseded', tool: 'Read', input: '/a.ts', refetch: 'same-call' });
      epoch.ledger = [
        {
          ordinal: 1,
          id: 'toolu_1',
          tool: 'Read',
          sha: epoch.items.tool_results[0].sha256.slice(0, 12),
          score: 'local',
          verdict: 'drop',
          rule: 'superseded',
          refetch: 'same-call',
        },
        { ordinal: 5, id: 'toolu_5', tool: 'Bash', sha: '0123456789ab', score: 0.3, verdict: 'keep', rule: 'model', refetch: 'elided-file' },
      ];
    });
    expect(checkConversationRecord(value, KEY)).toEqual([]);
  });

  const LABELLED = { label: 'pointer', rule: 'default', tool: 'Bash', input: 'ls', refetch: 'elided-file' };
  const ROW = { ordinal: 0, id: 'toolu_0', tool: 'Bash', sha: '0123456789ab', score: 'local', verdict: 'pointer', rule: 'default', refetch: 'elided-file' };

  it.each([
    ['a block with only some label fields', { label: 'drop', rule: 'secret' }, 'has label, rule but not tool, input, refetch'],
    ['a keep label on a frozen block', { ...LABELLED, label: 'keep' }, 'label is not "pointer" or "drop"'],
    ['an unknown rule', { ...LABELLED, rule: 'vibes' }, 'rule is not a known rule'],
    ['a tool name a stub cannot carry', { ...LABELLED, tool: 'my tool' }, 'tool is not a tool name'],
    ['an input that is not a string', { ...LABELLED, input: 7 }, 'input is not a string'],
    ['an unknown route', { ...LABELLED, refetch: 'telepathy' }, 'refetch is not a known route'],
  ])('should report %s', (_name, fields, problem) => {
    const value = edited((r) => Object.assign(r['epochs'][0].items.tool_results[0], fields));
    expect(checkConversationRecord(value, KEY).join('\n')).toContain(problem);
  });

  it.each([
    ['a ledger that is not an array', {}, 'ledger is not an array'],
    ['a row that is not an object', [1], 'ledger row 0 is not an object'],
    ['a long sha', [{ ...ROW, sha: 'a'.repeat(64) }], 'sha is not 12 lowercase hex digits'],
    ['a score over 1', [{ ...ROW, score: 1.5 }], 'score is not "local" or a number 0..1'],
    ['an unknown verdict', [{ ...ROW, verdict: 'maybe' }], 'verdict is not keep, pointer or drop'],
    ['a row without an id', [{ ...ROW, id: undefined }], 'id is not a string'],
  ])('should report %s', (_name, ledger, problem) => {
    const value = edited((r) => (r['epochs'][0].ledger = ledger));
    expect(checkConversationRecord(value, KEY).join('\n')).toContain(problem);
  });

  it('should accept both triggers, and an epoch without one (a record from before triggers)', () => {
    const value = edited((r) => {
      r['epochs'][0].trigger = 'threshold';
      r['epochs'][1].trigger = 'overflow';
      r['epochs'][1].reason.limit = 200_000;
    });
    expect(checkConversationRecord(value, KEY)).toEqual([]);
    expect(
      checkConversationRecord(
        edited((r) => delete r['epochs'][0].trigger),
        KEY,
      ),
    ).toEqual([]);
  });

  it('should accept midTurn on a threshold epoch, and report it elsewhere or not true', () => {
    expect(
      checkConversationRecord(
        edited((r) => (r['epochs'][0].midTurn = true)),
        KEY,
      ),
    ).toEqual([]);
    expect(
      checkConversationRecord(
        edited((r) => (r['epochs'][0].midTurn = false)),
        KEY,
      ).join('\n'),
    ).toContain('midTurn false: only true, and only on a threshold epoch');
    const overflow = edited((r) => {
      r['epochs'][1].trigger = 'overflow';
      r['epochs'][1].reason.limit = 200_000;
      r['epochs'][1].midTurn = true;
    });
    expect(checkConversationRecord(overflow, KEY).join('\n')).toContain('midTurn true: only true, and only on a threshold epoch');
  });

  it.each([
    ['an unknown trigger', () => edited((r) => (r['epochs'][0].trigger = 'whim')), 'trigger "whim" is not one of threshold, overflow'],
    ['a limit that is not a count', () => edited((r) => (r['epochs'][0].reason.limit = 'big')), 'reason.limit is not'],
    [
      'a crossed threshold of no known kind',
      () => edited((r) => (r['epochs'][0].reason.crossed = 'bytes')),
      'reason.crossed "bytes" is not fullness or tokens',
    ],
    ['a token threshold that is not a count', () => edited((r) => (r['epochs'][0].reason.thresholdTokens = -1)), 'reason.thresholdTokens is not'],
    ['a cold flag that is not true', () => edited((r) => (r['epochs'][0].reason.cold = false)), 'reason.cold false: only true'],
    ['not an object', () => [1, 2], 'not a JSON object'],
    ['a wrong format', () => edited((r) => (r['format'] = 'ctxshed.conversation/3')), 'format is not'],
    ['a key that is not the file name', () => edited((r) => (r['key'] = keyOf('b'))), 'does not match its file name'],
    ['a long firstPrompt', () => edited((r) => (r['firstPrompt'] = 'x'.repeat(201))), 'firstPrompt is over 200'],
    ['a bad createdAt', () => edited((r) => (r['createdAt'] = 'yesterday')), 'createdAt'],
    ['epochs not an array', () => edited((r) => (r['epochs'] = {})), 'epochs is not an array'],
    ['epochs out of order', () => edited((r) => r['epochs'].reverse()), 'numbered 2; epochs must be numbered 1..n'],
    ['a missing epoch', () => edited((r) => r['epochs'].shift()), 'epoch #1: numbered 2'],
    ['a reason without fullness', () => edited((r) => delete r['epochs'][0].reason.fullness), 'reason.fullness'],
    ['a policy without name', () => edited((r) => delete r['epochs'][0].policy.name), 'policy.name'],
    ['an uppercase sha256', () => edited((r) => (r['epochs'][0].items.tool_results[0].sha256 = 'A'.repeat(64))), 'sha256 is not'],
    ['a bad rawSha256', () => edited((r) => (r['epochs'][0].items.tool_results[0].rawSha256 = 'x')), 'rawSha256 is not'],
    ['a negative ordinal', () => edited((r) => (r['epochs'][0].items.tool_results[0].ordinal = -1)), 'ordinal is not'],
    ['an ordinal elided twice', () => edited((r) => (r['epochs'][1].items.tool_results[0].ordinal = 0)), 'ordinal 0 is already elided'],
    ['fractional bytes', () => edited((r) => (r['epochs'][0].items.tool_results[0].bytes = 1.5)), 'bytes is not'],
  ])('should report %s', (_name, make, problem) => {
    const problems = checkConversationRecord(make(), KEY);
    expect(problems.join('\n')).toContain(problem);
  });
});
