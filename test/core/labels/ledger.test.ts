import { describe, expect, it } from 'vitest';
import type { FrozenBlock, Epoch } from '../../../src/core/epoch-types.js';
import type { BlockLabel, LedgerRow } from '../../../src/core/labels/label-types.js';
import { checkEpochLedger, countVerdicts, ledgerRowOf, renderLedgerLine } from '../../../src/core/labels/ledger.js';

const SHA = 'e8428025c464'.padEnd(64, '7');

function row(extra: Partial<LedgerRow> = {}): LedgerRow {
  return { ordinal: 14, id: 'toolu_14', tool: 'Bash', sha: SHA.slice(0, 12), score: 0.9, verdict: 'drop', rule: 'model', refetch: 'elided-file', ...extra };
}

function block(extra: Partial<FrozenBlock> = {}): FrozenBlock {
  return {
    ordinal: 14,
    toolUseId: 'toolu_14',
    bytes: 2000,
    sha256: SHA,
    jsonBytes: 2002,
    jsonSha256: 'a'.repeat(64),
    label: 'drop',
    rule: 'model',
    tool: 'Bash',
    input: 'npm test',
    refetch: 'elided-file',
    ...extra,
  };
}

function epoch(version: number, blocks: FrozenBlock[], ledger?: LedgerRow[]): Epoch {
  const base = {
    n: 2,
    latchedAt: '2026-09-19T00:00:00.000Z',
    reason: { fullness: 0.8, threshold: 0.7, window: 200000, contextTokens: 160000 },
    kind: 'tool_results',
    policy: { name: 'elide-old-tool-results', version, keepRecent: 6, minBytes: 1024 },
    items: { tool_results: blocks },
  };
  return ledger === undefined ? base : { ...base, ledger };
}

describe('ledgerRowOf', () => {
  it('should keep the id, tool, 12 hex digits of the sha256, score, verdict, rule and route', () => {
    // Arrange
    const label: BlockLabel = {
      ordinal: 7,
      toolUseId: 'toolu_7',
      tool: 'Read',
      input: '/a',
      label: 'drop',
      rule: 'superseded',
      score: 'local',
      refetch: 'same-call',
    };

    // Act
    const got = ledgerRowOf(label, SHA);

    // Assert
    expect(got).toEqual({
      ordinal: 7,
      id: 'toolu_7',
      tool: 'Read',
      sha: 'e8428025c464',
      score: 'local',
      verdict: 'drop',
      rule: 'superseded',
      refetch: 'same-call',
    });
  });
});

describe('renderLedgerLine', () => {
  it.each([
    ['a classifier row, as the seed prints it', row(), 'Bash#14 e8428025c464 drop 0.9'],
    ['a pointer score', row({ tool: 'Grep', ordinal: 8, score: 0.62, verdict: 'pointer' }), 'Grep#8 e8428025c464 pointer 0.62'],
    ['a long score, rounded', row({ score: 0.956789 }), 'Bash#14 e8428025c464 drop 0.96'],
    ["a rule's row", row({ tool: 'Read', ordinal: 7, score: 'local', rule: 'superseded' }), 'Read#7 e8428025c464 drop local superseded'],
    ["the default rule's row", row({ score: 'local', verdict: 'pointer', rule: 'default' }), 'Bash#14 e8428025c464 pointer local'],
  ])('should print %s', (_case, r, expected) => {
    expect(renderLedgerLine(r)).toBe(expected);
  });
});

describe('countVerdicts', () => {
  it('should count each verdict', () => {
    expect(countVerdicts([row(), row({ verdict: 'keep' }), row({ verdict: 'drop' }), row({ verdict: 'pointer' })])).toEqual({ keep: 1, pointer: 1, drop: 2 });
  });
});

describe('checkEpochLedger', () => {
  it('should pass a version 3 epoch whose ledger lists every frozen block, and a kept one', () => {
    expect(checkEpochLedger(epoch(3, [block()], [row(), row({ ordinal: 15, id: 'toolu_15', verdict: 'keep', score: 0.3 })]))).toEqual([]);
  });

  it('should leave a shed epoch alone: it has its own policy and no ledger', () => {
    expect(checkEpochLedger({ ...epoch(3, []), kind: 'span', items: { span: [{ first: 1, last: 2, sha256: 'a'.repeat(64), bytes: 10, pins: [] }] } })).toEqual(
      [],
    );
  });

  it("should leave a correction epoch alone: it keeps the last epoch's policy, and freezes no block to label", () => {
    expect(checkEpochLedger({ ...epoch(3, []), kind: 'thinking_only', trigger: 'prefix_check', items: { thinking_only: [] } })).toEqual([]);
  });

  it('should pass a version 2 epoch without labels or ledger', () => {
    const { label: _l, rule: _r, tool: _t, input: _i, refetch: _f, ...plain } = block();
    expect(checkEpochLedger(epoch(2, [plain]))).toEqual([]);
  });

  it.each([
    ['no ledger at all', epoch(3, [block()]), 'epoch #2: no ledger (policy version 3 keeps one)'],
    ['a frozen block without a row', epoch(3, [block(), block({ ordinal: 20, toolUseId: 'toolu_20' })], [row()]), 'epoch #2 ordinal 20: no ledger row'],
    ['a row for another id', epoch(3, [block()], [row({ id: 'toolu_99' })]), "epoch #2 ordinal 14: ledger row id toolu_99, the block's is toolu_14"],
    [
      'a row for other text',
      epoch(3, [block()], [row({ sha: '000000000000' })]),
      "epoch #2 ordinal 14: ledger row sha 000000000000 does not match the block's sha256",
    ],
    ['a row with another verdict', epoch(3, [block()], [row({ verdict: 'pointer' })]), 'epoch #2 ordinal 14: ledger says pointer, the block is labelled drop'],
    ['a stub row without a block', epoch(3, [], [row()]), 'epoch #2: ledger row 14 says drop but no block was frozen'],
    ['two rows for one block', epoch(3, [block()], [row(), row()]), 'epoch #2: two ledger rows for ordinal 14'],
    ['a version 3 block without a label', epoch(3, [block({ label: undefined as never })], [row()]), 'epoch #2 ordinal 14: no label'],
    ['a label in a version 2 epoch', epoch(2, [block()]), 'epoch #2 ordinal 14: a label in a version 2 epoch'],
  ])('should fail %s', (_case, e, problem) => {
    expect(checkEpochLedger(e)).toContain(problem);
  });
});
