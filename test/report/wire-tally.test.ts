import { describe, expect, it } from 'vitest';
import type { WireRecord } from '../../src/state/wire-record.js';
import { classifyWireLine } from '../../src/state/wire-line.js';
import { addRequestCounts, addWireEntry, newRequestCounts, newWireTally, type WireTally } from '../../src/report/wire-tally.js';
import { KEY_A, KEY_B, KEY_C, rewritten, wire } from './report-fixtures.js';

function fold(records: WireRecord[]): WireTally {
  const tally = newWireTally();
  for (const record of records) addWireEntry(tally, { kind: 'record', record });
  return tally;
}

describe('addWireEntry', () => {
  it('should count a count_tokens call no model call named before as a side call, never a conversation, and one after its conversation under it', () => {
    const tally = fold([
      wire({ t: '2026-01-01T00:00:01.000Z', route: 'count_tokens', path: '/v1/messages/count_tokens' }, KEY_B),
      wire({ t: '2026-01-01T00:00:02.000Z', route: 'count_tokens', path: '/v1/messages/count_tokens' }, KEY_C),
      wire({ t: '2026-01-01T00:00:03.000Z' }),
      wire({ t: '2026-01-01T00:00:04.000Z', route: 'count_tokens', path: '/v1/messages/count_tokens' }),
    ]);

    expect([...tally.conversations.keys()]).toEqual([KEY_A]);
    expect(tally.conversations.get(KEY_A)!.requests).toBe(2);
    expect(tally.sideCalls.requests).toBe(2);
    expect(tally.records).toBe(4);
  });

  it('should count requests per conversation: rewritten, and passed through by reason', () => {
    const tally = fold([
      wire({ t: '2026-01-01T00:00:01.000Z' }),
      wire({ t: '2026-01-01T00:00:02.000Z' }),
      rewritten('2026-01-01T00:00:03.000Z', 1, 3, 9000, { latched: 1 }),
      wire({ t: '2026-01-01T00:00:04.000Z', reason: 'epoch_mismatch', epochs: 1 }),
      wire({ t: '2026-01-01T00:00:05.000Z' }, KEY_B),
    ]);

    const a = tally.conversations.get(KEY_A)!;
    expect(a.requests).toBe(4);
    expect(a.rewritten).toBe(1);
    expect({ ...a.passthrough }).toEqual({ no_epoch: 2, epoch_mismatch: 1 });
    expect(a.latches).toEqual([{ n: 1, t: '2026-01-01T00:00:03.000Z', cacheReadBefore: 1497 }]);
    expect(tally.conversations.get(KEY_B)!.requests).toBe(1);
    expect(tally.records).toBe(5);
    expect([tally.firstAt, tally.lastAt]).toEqual(['2026-01-01T00:00:01.000Z', '2026-01-01T00:00:05.000Z']);
  });

  it('should sum what rewritten requests carried only for means, and keep the most per epoch count', () => {
    const tally = fold([
      rewritten('2026-01-01T00:00:01.000Z', 1, 3, 9000),
      rewritten('2026-01-01T00:00:02.000Z', 1, 3, 9000),
      rewritten('2026-01-01T00:00:03.000Z', 2, 5, 15_000),
    ]);

    const a = tally.conversations.get(KEY_A)!;
    expect(a.rewrittenBytesElided).toBe(33_000);
    expect(a.rewrittenBytesSaved).toBe(3 * 40_000 - (40_000 - 9000 + 810) * 2 - (40_000 - 15_000 + 1350));
    expect(a.maxBytesElidedByEpochs).toEqual([0, 9000, 15_000]);
    expect(a.maxRescuedByEpochs).toEqual([0, 3, 5]);
  });

  it('should take the last messages request with a reading as the current fullness, not a count_tokens call after it', () => {
    const tally = fold([
      wire({ t: '2026-01-01T00:00:01.000Z', fullness: 0.5 }),
      wire({ t: '2026-01-01T00:00:02.000Z', fullness: 0.6 }),
      { ...wire({ t: '2026-01-01T00:00:03.000Z', route: 'count_tokens', path: '/v1/messages/count_tokens' }), fullness: undefined } as unknown as WireRecord,
      { ...wire({ t: '2026-01-01T00:00:04.000Z', status: 529 }), usage: undefined, fullness: undefined } as unknown as WireRecord,
    ]);

    const a = tally.conversations.get(KEY_A)!;
    expect(a.lastReading?.fullness).toBe(0.6);
    expect(a.last.t).toBe('2026-01-01T00:00:04.000Z');
    expect(a.errors).toBe(1);
  });

  it('should measure tokens per byte over messages requests with usage', () => {
    const tally = fold([wire({ t: '2026-01-01T00:00:01.000Z', bytesOut: 10_000, usage: { input: 3, cacheCreation: 997, cacheRead: 1500, output: 9 } })]);

    const a = tally.conversations.get(KEY_A)!;
    expect([a.usageTokens, a.usageBytes]).toEqual([2500, 10_000]);
  });

  it('should count requests in no conversation apart', () => {
    const tally = fold([wire({ t: '2026-01-01T00:00:01.000Z', route: null, reason: 'not_a_model_call', status: 500 }, null)]);

    expect(tally.conversations.size).toBe(0);
    expect(tally.unkeyed.requests).toBe(1);
    expect(tally.unkeyed.errors).toBe(1);
    expect({ ...tally.unkeyed.passthrough }).toEqual({ not_a_model_call: 1 });
  });

  it('should count a request ctxshed refused (a web page) as an error, neither rewritten nor passed through', () => {
    const { reason: _none, ...refused } = wire({ t: '2026-01-01T00:00:01.000Z', status: 403, bytesIn: 0, bytesOut: 0 }, null);
    const tally = fold([{ ...refused, refused: 'foreign_host' } as WireRecord]);

    expect(tally.unkeyed.requests).toBe(1);
    expect(tally.unkeyed.errors).toBe(1);
    expect(tally.unkeyed.rewritten).toBe(0);
    expect({ ...tally.unkeyed.passthrough }).toEqual({});
  });

  it('should count what ctxshed answered itself (a WebSocket warm-up, a socket it closed) as requests, neither rewritten nor passed through', () => {
    const line = { t: '2026-01-01T00:00:01.000Z', method: 'POST', path: '/v1/responses', key: null, responseBytes: 0, rescued: 0, bytesElided: 0, epochs: 0 };
    const ms = { total: 1, prepare: 0 };
    const warmup: WireRecord = { ...line, route: 'responses', status: 200, bytesIn: 55, bytesOut: 0, ms, transport: 'websocket', warmup: true };
    const closed: WireRecord = { ...line, method: 'GET', route: null, status: 101, bytesIn: 0, bytesOut: 0, ms, transport: 'websocket', closeCode: 1009 };
    const tally = fold([warmup, closed]);

    expect(tally.unkeyed.requests).toBe(2);
    expect(tally.unkeyed.rewritten).toBe(0);
    expect(tally.unkeyed.rewrittenBytesSaved).toBe(0);
    expect({ ...tally.unkeyed.passthrough }).toEqual({});
  });

  it('should count notes, torn-line markers and unreadable lines without taking them for requests', () => {
    const tally = newWireTally();
    for (const line of ['{"t":"2026-01-01T00:00:00.000Z","note":"state_unavailable","detail":"EACCES"}', '{"ctxshed":"torn-line"}', '{"t":"2026', '']) {
      addWireEntry(tally, classifyWireLine(line));
    }

    expect([tally.lines, tally.notes, tally.tornMarkers, tally.unreadable, tally.records]).toEqual([4, 1, 1, 2, 0]);
    expect(tally.lastNote?.note).toBe('state_unavailable');
  });

  it('should keep a reason named like an Object.prototype property a plain count', () => {
    const tally = fold([
      wire({ t: '2026-01-01T00:00:01.000Z', reason: '__proto__' as never }),
      wire({ t: '2026-01-01T00:00:02.000Z', reason: 'constructor' as never }),
    ]);

    const a = tally.conversations.get(KEY_A)!;
    expect(Object.entries(a.passthrough)).toEqual([
      ['__proto__', 1],
      ['constructor', 1],
    ]);
  });
});

describe('addWireEntry, holds', () => {
  it('should count the requests over the threshold that latched nothing by hold reason, and skip an implausible one', () => {
    const tally = fold([
      wire({ t: '2026-01-01T00:00:01.000Z', hold: 'gain_too_small' }),
      wire({ t: '2026-01-01T00:00:02.000Z', hold: 'gain_too_small' }),
      wire({ t: '2026-01-01T00:00:03.000Z', hold: 'gate' }),
      wire({ t: '2026-01-01T00:00:04.000Z', hold: 'NOT A REASON' as never }),
    ]);

    expect({ ...tally.conversations.get(KEY_A)!.holds }).toEqual({ gain_too_small: 2, gate: 1 });
  });

  it('should add them up across conversations', () => {
    const into = newRequestCounts();
    const from = newRequestCounts();
    from.holds['stale_reading'] = 3;

    addRequestCounts(into, from);

    expect({ ...into.holds }).toEqual({ stale_reading: 3 });
  });
});

describe('addWireEntry, request classes', () => {
  it("should count requests by Claude Code's request class, and none for a line without one or with an implausible one", () => {
    const tally = fold([
      wire({ t: '2026-01-01T00:00:01.000Z', requestClass: 'main' }),
      wire({ t: '2026-01-01T00:00:02.000Z', requestClass: 'main' }),
      wire({ t: '2026-01-01T00:00:03.000Z', requestClass: 'compaction' }),
      wire({ t: '2026-01-01T00:00:04.000Z' }),
      wire({ t: '2026-01-01T00:00:05.000Z', requestClass: 'NOT A CLASS' as never }),
    ]);

    expect({ ...tally.conversations.get(KEY_A)!.classes }).toEqual({ main: 2, compaction: 1 });
  });
});

describe('addWireEntry and rewrite paths', () => {
  it('should count the rewrites by how they ran, and none for a line that does not say', () => {
    const tally = fold([
      rewritten('2026-01-01T00:00:01.000Z', 1, 3, 9000, { latched: 1, rewritePath: 'full' }),
      rewritten('2026-01-01T00:00:02.000Z', 1, 3, 9000, { rewritePath: 'incremental' }),
      rewritten('2026-01-01T00:00:03.000Z', 1, 3, 9000, { rewritePath: 'incremental' }),
      rewritten('2026-01-01T00:00:04.000Z', 1, 3, 9000),
    ]);

    const into = newRequestCounts();
    addRequestCounts(into, tally.conversations.get(KEY_A)!);

    expect({ ...tally.conversations.get(KEY_A)!.rewritePaths }).toEqual({ full: 1, incremental: 2 });
    expect({ ...into.rewritePaths }).toEqual({ full: 1, incremental: 2 });
  });
});

describe('addRequestCounts', () => {
  it('should add every count and every reason', () => {
    const into = newRequestCounts();
    const tally = fold([wire({ t: '2026-01-01T00:00:01.000Z', skipped: { hash_mismatch: 2 } }), rewritten('2026-01-01T00:00:02.000Z', 1, 1, 2000)]);

    addRequestCounts(into, tally.conversations.get(KEY_A)!);
    addRequestCounts(into, tally.conversations.get(KEY_A)!);

    expect(into.requests).toBe(4);
    expect(into.rewritten).toBe(2);
    expect({ ...into.passthrough }).toEqual({ no_epoch: 2 });
    expect({ ...into.skippedBlocks }).toEqual({ hash_mismatch: 4 });
    expect(into.rewrittenBytesElided).toBe(4000);
  });
});

describe('addWireEntry with an absurd latch number', () => {
  it('should not believe a line that claims epoch 100,000,000 (it would make ls build that many epochs)', () => {
    const tally = fold([rewritten('2026-01-01T00:00:03.000Z', 1, 3, 9000, { latched: 100_000_000 })]);

    expect(tally.conversations.get(KEY_A)!.latches).toEqual([]);
  });
});

describe('addWireEntry with refaults', () => {
  it('should count each block named as a read, by epoch and ordinal, and ignore implausible entries', () => {
    const tally = fold([
      rewritten('2026-01-01T00:00:03.000Z', 1, 3, 9000, {
        refaults: 2,
        refaulted: [
          { epoch: 1, ordinal: 4, via: 'read' },
          { epoch: 1, ordinal: 5, via: 'bash' },
        ],
      }),
      rewritten('2026-01-01T00:00:04.000Z', 1, 3, 9000, { refaults: 1, refaulted: [{ epoch: 1, ordinal: 4, via: 'restore' }] }),
      rewritten('2026-01-01T00:00:05.000Z', 1, 3, 9000, {
        refaulted: [{ epoch: 0, ordinal: 1, via: 'read' }, { epoch: 1, ordinal: -1, via: 'read' }, null] as never,
      }),
    ]);

    const a = tally.conversations.get(KEY_A)!;
    expect(a.refaults).toBe(3);
    expect([...a.refaultsByEpoch.entries()].map(([n, m]) => [n, [...m.entries()]])).toEqual([
      [
        1,
        [
          [4, 2],
          [5, 1],
        ],
      ],
    ]);
  });

  it('should count a call once when a request resent after a restart names it again', () => {
    const tally = fold([
      rewritten('2026-01-01T00:00:03.000Z', 1, 3, 9000, { refaults: 1, refaulted: [{ epoch: 1, ordinal: 4, via: 'read', call: 'aaaaaaaaaaaaaaaa' }] }),
      rewritten('2026-01-01T00:00:04.000Z', 1, 3, 9000, { refaults: 1, refaulted: [{ epoch: 1, ordinal: 4, via: 'read', call: 'aaaaaaaaaaaaaaaa' }] }),
      rewritten('2026-01-01T00:00:05.000Z', 1, 3, 9000, { refaults: 1, refaulted: [{ epoch: 1, ordinal: 4, via: 'read', call: 'bbbbbbbbbbbbbbbb' }] }),
    ]);

    const a = tally.conversations.get(KEY_A)!;
    expect(a.refaults).toBe(2);
    expect([...a.refaultsByEpoch.get(1)!.entries()]).toEqual([[4, 2]]);
  });
});

describe('addWireEntry, latches', () => {
  it("should keep with each latch the cache reads of the conversation's call before it, or null with none", () => {
    const usage = (cacheRead: number) => ({ input: 3, cacheCreation: 10, cacheRead, output: 5 });

    const tally = fold([
      rewritten('2026-01-01T00:00:00.000Z', 1, 1, 1000, { latched: 1, usage: usage(100) }, KEY_B),
      wire({ t: '2026-01-01T00:00:01.000Z', usage: usage(7_000) }),
      wire({ t: '2026-01-01T00:00:02.000Z', route: 'count_tokens', usage: usage(1) }),
      rewritten('2026-01-01T00:00:03.000Z', 1, 1, 1000, { latched: 1, usage: usage(50) }),
    ]);

    expect(tally.conversations.get(KEY_B)!.latches).toEqual([{ n: 1, t: '2026-01-01T00:00:00.000Z', cacheReadBefore: null }]);
    expect(tally.conversations.get(KEY_A)!.latches).toEqual([{ n: 1, t: '2026-01-01T00:00:03.000Z', cacheReadBefore: 7_000 }]);
    expect(tally.conversations.get(KEY_A)!.lastCacheRead).toBe(50);
  });
});

describe('addWireEntry with overflow retries', () => {
  it('should count each refusal as too long by what followed, and ignore an implausible retry', () => {
    const retry = (over: object): Partial<WireRecord> =>
      ({ retry: { reason: 'overflow', firstStatus: 400, tokens: 210_000, limit: 200_000, ...over } }) as Partial<WireRecord>;
    const tally = fold([
      rewritten('2026-01-01T00:00:01.000Z', 1, 3, 9000, retry({ sent: true, status: 200 })),
      rewritten('2026-01-01T00:00:02.000Z', 1, 3, 9000, retry({ sent: true, status: 529 })),
      rewritten('2026-01-01T00:00:03.000Z', 1, 3, 9000, retry({ sent: false, why: 'nothing_new' })),
      rewritten('2026-01-01T00:00:04.000Z', 1, 3, 9000, retry({ sent: 'yes' })),
      rewritten('2026-01-01T00:00:05.000Z', 1, 3, 9000, { retry: { reason: 'other', sent: true } } as never),
    ]);

    expect(tally.conversations.get(KEY_A)!.overflow).toEqual({ retried_ok: 1, retried_error: 1, nothing_new: 1 });
  });
});

describe('addWireEntry, thinking dropped by the API', () => {
  it('should sum the blocks, count the requests and the reasons, and skip implausible entries', () => {
    const tally = fold([
      wire({ t: '2026-01-01T00:00:01.000Z', thinkingDropped: 3, thinkingDroppedBy: { prefix_binding_mismatch: 2, model_binding_mismatch: 1 } }),
      wire({ t: '2026-01-01T00:00:02.000Z', thinkingDropped: 1, thinkingDroppedBy: { prefix_binding_mismatch: 1, 'Not A Reason': 5, other: -1 } }),
      wire({ t: '2026-01-01T00:00:03.000Z', thinkingDropped: -4 }),
      wire({ t: '2026-01-01T00:00:04.000Z' }),
    ]);
    const a = tally.conversations.get(KEY_A)!;

    expect([a.thinkingDropped, a.thinkingDroppedRequests]).toEqual([4, 2]);
    expect({ ...a.thinkingDroppedBy }).toEqual({ prefix_binding_mismatch: 3, model_binding_mismatch: 1 });

    const into = newRequestCounts();
    addRequestCounts(into, a);
    addRequestCounts(into, a);
    expect([into.thinkingDropped, into.thinkingDroppedRequests]).toEqual([8, 4]);
    expect({ ...into.thinkingDroppedBy }).toEqual({ prefix_binding_mismatch: 6, model_binding_mismatch: 2 });
  });
});
