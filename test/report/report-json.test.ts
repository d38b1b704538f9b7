import { describe, expect, it } from 'vitest';
import { EPOCH_KIND_INFO } from '../../src/core/epochs/kind-info.js';
import { conversationJson, showConversationJson, usagesOfFile } from '../../src/report/report-json.js';
import { summarizeConversation } from '../../src/report/conversation-summary.js';
import { block, epoch, KEY_A, record } from './report-fixtures.js';
import { session } from './render-fixtures.js';

describe('conversationJson', () => {
  it('should give the stable ls shape, epochs as a count', () => {
    const { summaries } = session();

    const json = conversationJson(summaries.find((s) => s.key === KEY_A)!);

    expect(Object.keys(json)).toEqual([
      'key',
      'shortKey',
      'agentId',
      'model',
      'firstPrompt',
      'createdAt',
      'firstSeen',
      'lastSeen',
      'fullness',
      'window',
      'epochs',
      'blocksElided',
      'bytesElided',
      'tokensElided',
      'requests',
      'refaults',
      'blocksRefaulted',
      'refaultRate',
      'mode',
      'spansShed',
      'messagesShed',
      'spans',
    ]);
    expect(json).toMatchObject({ mode: 'rescue', spansShed: 0, messagesShed: 0, spans: [] });
    expect(json).toMatchObject({ shortKey: 'aaaaaaaaaaaa', epochs: 2, blocksElided: 3, bytesElided: 63_213, requests: 4, fullness: 0.55 });
    expect(json).toMatchObject({ refaults: 3, blocksRefaulted: 2, refaultRate: 0.6667 });
  });
});

describe('conversationJson, shed mode', () => {
  it("should list each shed epoch's span with its own bytes, tokens and per-turn price, and no block figures", async () => {
    const { shedSession, SPAN_1 } = await import('./render-fixtures.js');
    const { KEY_C } = await import('./report-fixtures.js');

    const json = conversationJson(shedSession().summaries.find((s) => s.key === KEY_C)!);

    expect(json).toMatchObject({ mode: 'shed', epochs: 2, spansShed: 2, messagesShed: 14, blocksElided: 0, bytesElided: 0 });
    expect(json.spans.map((s) => [s.epoch, s.first, s.last, s.bytes, s.perTurn?.basis])).toEqual([
      [1, 1, 8, SPAN_1.bytes, 'cache_read_marginal'],
      [2, 10, 15, 20_000, 'blended'],
    ]);
  });
});

describe('showConversationJson', () => {
  it('should give a shed epoch its mode, its span with the path of its rendering, and its gate', async () => {
    const { shedSession, SPAN_1 } = await import('./render-fixtures.js');
    const { KEY_C } = await import('./report-fixtures.js');
    const { summaries, records } = shedSession();

    const json = showConversationJson(
      summaries.find((s) => s.key === KEY_C)!,
      records.find((r) => r.key === KEY_C)!.epochs,
      (sha) => sha,
      (sha) => `/st/spans/${sha}.md`,
    ) as {
      epochs: Array<{ mode: string; blocks: unknown[]; span: { sha256: string; path: string; messages: number }; gate: { latch: boolean } }>;
    };

    expect(json.epochs[0]).toMatchObject({
      mode: 'shed',
      blocks: [],
      span: { sha256: SPAN_1.sha256, messages: 8, path: `/st/spans/${SPAN_1.sha256}.md` },
      gate: { latch: true, droppedCachedTokens: 7_744 },
    });
  });

  it('should give each epoch its reason, policy and blocks with the path of each original', () => {
    const { summaries, records } = session();

    const json = showConversationJson(
      summaries.find((s) => s.key === KEY_A)!,
      records[0]!.epochs,
      (sha) => `/st/elided/${sha}.txt`,
      (sha) => `/st/spans/${sha}.md`,
    ) as {
      epochs: Array<{ n: number; trigger: string; reason: object; blocks: Array<{ ordinal: number; path: string }> }>;
    };

    expect(json.epochs.map((e) => e.n)).toEqual([1, 2]);
    expect(json.epochs[0]!.trigger).toBe('threshold');
    expect(json.epochs.map((e) => [(e as { refaults?: number }).refaults, (e as { blocksRefaulted?: number }).blocksRefaulted])).toEqual([
      [3, 2],
      [0, 0],
    ]);
    expect(json.epochs[0]!.reason).toEqual({ fullness: 0.7261, threshold: 0.7, window: 20_000, contextTokens: 14_522 });
    expect(json.epochs[0]!.blocks[0]).toEqual({
      ordinal: 0,
      toolUseId: 'toolu_0',
      bytes: 48_213,
      sha256: 'a'.repeat(64),
      path: `/st/elided/${'a'.repeat(64)}.txt`,
    });
  });

  it('should give an overflow epoch its trigger and the maximum the API named', () => {
    const base = epoch(1, '2026-01-01T10:00:00.000Z', [block(0, 48_213)]);
    const overflow = {
      ...base,
      trigger: 'overflow' as const,
      reason: { fullness: 1.075, threshold: 0.7, window: 200_000, contextTokens: 215_000, limit: 200_000 },
    };

    const json = showConversationJson(
      summarizeConversation(record([overflow]), null, KEY_A),
      [overflow],
      (sha) => sha,
      (sha) => sha,
    ) as {
      epochs: Array<{ trigger: string; reason: object }>;
    };

    expect(json.epochs[0]).toMatchObject({
      trigger: 'overflow',
      reason: { fullness: 1.075, threshold: 0.7, window: 200_000, contextTokens: 215_000, limit: 200_000 },
    });
  });
});

describe('usagesOfFile, an elided file', () => {
  it('should name every block an elided file stands for', () => {
    const { records } = session();

    expect(usagesOfFile(EPOCH_KIND_INFO.tool_results, 'c'.repeat(64), 'txt', records)).toEqual([{ key: KEY_A, epoch: 2, ordinal: 4, toolUseId: 'toolu_4' }]);
    expect(usagesOfFile(EPOCH_KIND_INFO.tool_results, 'c'.repeat(64), 'json', records)).toEqual([]);
  });
});

describe('usagesOfFile, a span', () => {
  it('should name the shed epoch whose span a handle is, with the messages it stood for', async () => {
    const { shedSession, SPAN_2 } = await import('./render-fixtures.js');
    const { KEY_C } = await import('./report-fixtures.js');
    const { records } = shedSession();

    expect(usagesOfFile(EPOCH_KIND_INFO.span, SPAN_2.sha256, 'json', records)).toEqual([{ key: KEY_C, epoch: 2, first: 10, last: 15 }]);
    expect(usagesOfFile(EPOCH_KIND_INFO.span, 'a'.repeat(64), 'json', records)).toEqual([]);
  });
});
