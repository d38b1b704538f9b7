import { describe, expect, it } from 'vitest';
import { classifyWireLine } from '../../src/state/wire-line.js';
import { WIRE_TORN_MARKER } from '../../src/state/wire-log.js';
import { wire } from '../report/report-fixtures.js';

describe('classifyWireLine', () => {
  it('should read a wire record the proxy writes as a record', () => {
    const record = wire({ t: '2026-01-01T00:00:00.000Z' });

    const entry = classifyWireLine(JSON.stringify(record));

    expect(entry).toEqual({ kind: 'record', record });
  });

  it('should read a record of a request in no conversation (key null)', () => {
    const line = JSON.stringify(wire({ t: '2026-01-01T00:00:00.000Z', route: null, reason: 'not_a_model_call' }, null));

    expect(classifyWireLine(line).kind).toBe('record');
  });

  it("should read the proxy's notes and the torn-line marker", () => {
    const note = { t: '2026-01-01T00:00:00.000Z', note: 'state_unavailable', detail: 'EACCES' };

    expect(classifyWireLine(JSON.stringify(note))).toEqual({ kind: 'note', note });
    expect(classifyWireLine(JSON.stringify(WIRE_TORN_MARKER))).toEqual({ kind: 'torn-marker' });
  });

  it('should call a torn line, foreign JSON or a record with a mistyped field unreadable', () => {
    const good = JSON.stringify(wire({ t: '2026-01-01T00:00:00.000Z' }));
    const lines = [
      good.slice(0, 80),
      '[1,2]',
      '"text"',
      'null',
      '{"hello":"world"}',
      JSON.stringify({ ...wire({ t: '2026-01-01T00:00:00.000Z' }), bytesIn: '12' }),
      JSON.stringify({ ...wire({ t: '2026-01-01T00:00:00.000Z' }), key: 7 }),
      JSON.stringify({ ...wire({ t: '2026-01-01T00:00:00.000Z' }), usage: null }),
      JSON.stringify({ ...wire({ t: '2026-01-01T00:00:00.000Z' }), usage: { input: 1 } }),
      JSON.stringify({ ...wire({ t: '2026-01-01T00:00:00.000Z' }), skipped: null }),
      JSON.stringify({ ...wire({ t: '2026-01-01T00:00:00.000Z' }), fullness: '0.5' }),
      JSON.stringify({ ...wire({ t: '2026-01-01T00:00:00.000Z' }), refaults: '2' }),
      JSON.stringify({ ...wire({ t: '2026-01-01T00:00:00.000Z' }), retry: 'overflow' }),
    ];

    expect(lines.map((line) => classifyWireLine(line).kind)).toEqual(lines.map(() => 'unreadable'));
  });

  it('should read a record with refaults and a retry', () => {
    const line = JSON.stringify({
      ...wire({ t: '2026-01-01T00:00:00.000Z' }),
      refaults: 1,
      refaulted: [{ epoch: 1, ordinal: 0, via: 'bash' }],
      retry: { reason: 'overflow', firstStatus: 400, tokens: 9, sent: false, why: 'nothing_new' },
    });

    expect(classifyWireLine(line).kind).toBe('record');
  });

  it('should keep a record that carries fields a newer ctxshed added', () => {
    const line = JSON.stringify({ ...wire({ t: '2026-01-01T00:00:00.000Z' }), somethingNew: [1] });

    expect(classifyWireLine(line).kind).toBe('record');
  });
});

describe('classifyWireLine, thinking dropped', () => {
  const line = (extra: Record<string, unknown>): string =>
    JSON.stringify({ t: '2026-01-01T00:00:00.000Z', key: null, status: 200, bytesIn: 1, bytesOut: 1, rescued: 0, bytesElided: 0, epochs: 0, ...extra });

  it('should read a record with thinkingDropped and thinkingDroppedBy, and refuse ones of the wrong type', () => {
    expect(classifyWireLine(line({ thinkingDropped: 2, thinkingDroppedBy: { prefix_binding_mismatch: 2 } })).kind).toBe('record');
    expect(classifyWireLine(line({ thinkingDropped: '2' })).kind).toBe('unreadable');
    expect(classifyWireLine(line({ thinkingDropped: 2, thinkingDroppedBy: 2 })).kind).toBe('unreadable');
  });

  it("should read a Responses WebSocket's records (transport, warmup, closeCode), and refuse ones of the wrong type", () => {
    expect(classifyWireLine(line({ transport: 'websocket' })).kind).toBe('record');
    expect(classifyWireLine(line({ transport: 'websocket', warmup: true })).kind).toBe('record');
    expect(classifyWireLine(line({ transport: 'websocket', closeCode: 1002 })).kind).toBe('record');
    expect(classifyWireLine(line({ transport: 1 })).kind).toBe('unreadable');
    expect(classifyWireLine(line({ warmup: 'yes' })).kind).toBe('unreadable');
    expect(classifyWireLine(line({ closeCode: '1002' })).kind).toBe('unreadable');
  });
});
