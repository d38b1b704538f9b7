import { describe, expect, it } from 'vitest';
import { conversationJson, showConversationJson, usagesOf } from '../../src/report/report-json.js';
import { summarizeConversation } from '../../src/report/conversation-summary.js';
import { block, epoch, KEY_A, record } from './report-fixtures.js';
import { session } from './render-fixtures.js';

describe('conversationJson', () => {
  it('should give the stable ls shape, epochs as a count', () => {
    const { summaries } = session();

    const json = conversationJson(summaries.find((s) => s.key === KEY_A)!);

    expect(Object.keys(json)).toEqual([
      'key', 'shortKey', 'agentId', 'model', 'firstPrompt', 'createdAt', 'firstSeen', 'lastSeen',
      'fullness', 'window', 'epochs', 'blocksElided', 'bytesElided', 'tokensElided', 'requests',
      'refaults', 'blocksRefaulted', 'refaultRate',
    ]);
    expect(json).toMatchObject({ shortKey: 'aaaaaaaaaaaa', epochs: 2, blocksElided: 3, bytesElided: 63_213, requests: 4, fullness: 0.55 });
    expect(json).toMatchObject({ refaults: 3, blocksRefaulted: 2, refaultRate: 0.6667 });
  });
});

describe('showConversationJson', () => {
  it('should give each epoch its reason, policy and blocks with the path of each original', () => {
    const { summaries, records } = session();

    const json = showConversationJson(summaries.find((s) => s.key === KEY_A)!, records[0]!.epochs, (sha) => `/st/elided/${sha}.txt`) as {
      epochs: Array<{ n: number; trigger: string; reason: object; blocks: Array<{ ordinal: number; path: string }> }>;
    };

    expect(json.epochs.map((e) => e.n)).toEqual([1, 2]);
    expect(json.epochs[0]!.trigger).toBe('threshold');
    expect(json.epochs.map((e) => [(e as { refaults?: number }).refaults, (e as { blocksRefaulted?: number }).blocksRefaulted])).toEqual([[3, 2], [0, 0]]);
    expect(json.epochs[0]!.reason).toEqual({ fullness: 0.7261, threshold: 0.7, window: 20_000, contextTokens: 14_522 });
    expect(json.epochs[0]!.blocks[0]).toEqual({ ordinal: 0, toolUseId: 'toolu_0', bytes: 48_213, sha256: 'a'.repeat(64), path: `/st/elided/${'a'.repeat(64)}.txt` });
  });

  it('should give an overflow epoch its trigger and the maximum the API named', () => {
    const base = epoch(1, '2026-01-01T10:00:00.000Z', [block(0, 48_213)]);
    const overflow = { ...base, trigger: 'overflow' as const, reason: { fullness: 1.075, threshold: 0.7, window: 200_000, contextTokens: 215_000, limit: 200_000 } };

    const json = showConversationJson(summarizeConversation(record([overflow]), null, KEY_A), [overflow], (sha) => sha) as {
      epochs: Array<{ trigger: string; reason: object }>;
    };

    expect(json.epochs[0]).toMatchObject({ trigger: 'overflow', reason: { fullness: 1.075, threshold: 0.7, window: 200_000, contextTokens: 215_000, limit: 200_000 } });
  });
});

describe('usagesOf', () => {
  it('should name every block an elided file stands for', () => {
    const { records } = session();

    expect(usagesOf('c'.repeat(64), 'elided', records)).toEqual([{ key: KEY_A, epoch: 2, ordinal: 4, toolUseId: 'toolu_4' }]);
    expect(usagesOf('c'.repeat(64), 'elided-json', records)).toEqual([]);
  });
});
