/**
 * The one upgrade of a version 1 record (src/core/upgrade-record.ts, docs/state.md): nothing is
 * lost, checked by a downgrade written here apart from the code under test; a current record is
 * left as it is; and reading any record, however broken, gives a record or a clear STATE_BAD_RECORD,
 * never a crash.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { upgradeRecord } from '../src/core/upgrade-record.js';
import { parseConversationRecord } from '../src/state/conversation-record.js';
import { StateError } from '../src/state/state-error.js';

type Json = Record<string, unknown>;

const itemArb = fc.dictionary(fc.constantFrom('ordinal', 'sha256', 'bytes', 'first', 'last', 'type'), fc.oneof(fc.nat(), fc.string()), { maxKeys: 4 });
const listArb = fc.array(itemArb, { maxLength: 3 });
const headArb = fc.record({
  n: fc.nat(),
  latchedAt: fc.constant('2026-01-01T00:00:00.000Z'),
  reason: fc.record({ fullness: fc.double({ min: 0, max: 2, noNaN: true }), threshold: fc.constant(0.7), window: fc.nat(), contextTokens: fc.nat() }),
  policy: fc.record({ name: fc.string(), version: fc.nat(9), keepRecent: fc.nat(), minBytes: fc.nat() }),
});
const extrasArb = fc.record(
  { gate: fc.record({ latch: fc.boolean() }), midTurn: fc.constant(true), ledger: fc.array(itemArb, { maxLength: 2 }) },
  { requiredKeys: [] },
);
const thinkingArb = fc.option(listArb, { nil: undefined });

/** A version 1 epoch of one of the four old shapes (a correction without the mode it carried, which the upgrade drops). */
const v1EpochArb: fc.Arbitrary<Json> = fc.oneof(
  fc
    .tuple(headArb, extrasArb, listArb, thinkingArb, fc.constantFrom(undefined, 'threshold', 'overflow', 'command'))
    .map(([head, extras, blocks, thinking, trigger]) => ({
      ...head,
      ...(trigger === undefined ? {} : { trigger }),
      blocks,
      ...extras,
      ...(thinking === undefined ? {} : { thinking }),
    })),
  fc.tuple(headArb, extrasArb, itemArb, thinkingArb).map(([head, extras, span, thinking]) => ({
    ...head,
    mode: 'shed',
    trigger: 'threshold',
    blocks: [],
    span,
    ...extras,
    ...(thinking === undefined ? {} : { thinking }),
  })),
  fc.tuple(headArb, listArb).map(([head, thinking]) => ({ ...head, trigger: 'prefix_check', blocks: [], thinking })),
  fc.tuple(headArb, fc.constantFrom('quotes', 'assistant_text'), listArb).map(([head, tag, items]) => ({ ...head, blocks: [], items: { [tag]: items } })),
);

/** The version 1 shape of an upgraded epoch, written from docs/state.md alone. */
function downgrade(epoch: Json): Json {
  const { kind, items, ...rest } = epoch as Json & { kind: string; items: Record<string, unknown[]> };
  const { tool_results: blocks, span, thinking_only: thinking, ...registered } = items;
  return {
    ...rest,
    ...(kind === 'span' ? { mode: 'shed' } : {}),
    blocks: blocks ?? [],
    ...(span === undefined ? {} : { span: span[0] }),
    ...(Object.keys(registered).length === 0 ? {} : { items: registered }),
    ...(thinking === undefined ? {} : { thinking }),
  };
}

describe('upgrading a version 1 record', () => {
  it('should lose nothing: the downgrade of the upgraded record is the record it was', () => {
    fc.assert(
      fc.property(fc.array(v1EpochArb, { maxLength: 5 }), (epochs) => {
        const old = { format: 'ctxshed.conversation/1', key: 'k', agentId: null, firstPrompt: '', model: 'm', createdAt: '2026-01-01T00:00:00.000Z', epochs };
        const upgraded = upgradeRecord(old) as Json & { epochs: Json[] };

        expect(upgraded['format']).toBe('ctxshed.conversation/2');
        expect(upgraded.epochs.map(downgrade)).toEqual(epochs);
        expect(upgradeRecord(upgraded)).toBe(upgraded);
      }),
    );
  });

  it('should read any record, however broken, as a record or a STATE_BAD_RECORD, never a crash', () => {
    const anyEpochArb = fc.oneof(
      v1EpochArb,
      fc.anything(),
      fc.dictionary(fc.constantFrom('kind', 'items', 'n', 'trigger', '__proto__', 'constructor'), fc.anything()),
    );
    fc.assert(
      fc.property(fc.constantFrom('ctxshed.conversation/1', 'ctxshed.conversation/2'), fc.array(anyEpochArb, { maxLength: 4 }), (format, epochs) => {
        const text = JSON.stringify({ format, key: 'k', agentId: null, firstPrompt: '', model: 'm', createdAt: '2026-01-01T00:00:00.000Z', epochs });
        try {
          const record = parseConversationRecord(text, 'k', 'the record');
          for (const epoch of record.epochs) expect(typeof epoch.items).toBe('object');
        } catch (error) {
          expect(error).toBeInstanceOf(StateError);
          expect((error as StateError).code).toBe('STATE_BAD_RECORD');
        }
      }),
    );
  });
});
