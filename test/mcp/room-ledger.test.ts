import { describe, expect, it } from 'vitest';
import { RoomLedger } from '../../src/mcp/room-ledger.js';

const room = (key: string, at: string, leftTokens: number) => ({ key, at, fullness: 0.5, window: 100_000, leftTokens });

describe('RoomLedger', () => {
  it('should take what it gave since a reading off that reading’s room, and nothing off a newer reading', () => {
    const ledger = new RoomLedger();
    const first = room('a', 't1', 10_000);

    ledger.note(first, 3_000);
    ledger.note(first, 2_500);

    expect(ledger.left(first)).toMatchObject({ leftTokens: 4_500, given: 5_500 });
    expect(ledger.left(room('a', 't2', 8_000))).toMatchObject({ leftTokens: 8_000, given: 0 });
    expect(ledger.left(room('b', 't1', 10_000))).toMatchObject({ leftTokens: 10_000, given: 0 });
    expect(ledger.left(undefined)).toBeUndefined();
  });

  it('should never leave less than no room', () => {
    const ledger = new RoomLedger();
    const r = room('a', 't', 1_000);
    ledger.note(r, 5_000);
    expect(ledger.left(r)?.leftTokens).toBe(0);
  });
});
