import { describe, expect, it } from 'vitest';
import { freezeBlock } from '../../../src/core/plan-elision.js';
import { freezeLabelled } from '../../../src/core/labels/freeze-labelled.js';
import type { BlockLabel } from '../../../src/core/labels/label-types.js';
import { session } from './rules.js';
import { bulk, read } from './session-body.js';

const S = session([read('/a', bulk(2000, 1)), read('/b', bulk(2000, 2)), read('/c', bulk(2000, 3))]);

function label(ordinal: number, verdict: BlockLabel['label']): BlockLabel {
  return {
    ordinal,
    toolUseId: `toolu_${ordinal}`,
    tool: 'Read',
    input: `/${'abc'[ordinal]}`,
    label: verdict,
    rule: verdict === 'drop' ? 'superseded' : 'model',
    score: verdict === 'drop' ? 'local' : 0.7,
    refetch: 'same-call',
  };
}

describe('freezeLabelled', () => {
  it('should freeze pointer and drop blocks with their labels, and list every block in the ledger', () => {
    // Arrange
    const labels = [label(0, 'drop'), label(1, 'keep'), label(2, 'pointer')];

    // Act
    const { blocks, ledger } = freezeLabelled(S.plan, labels);

    // Assert
    expect(blocks).toEqual([
      { ...freezeBlock(S.plan[0]!), label: 'drop', rule: 'superseded', tool: 'Read', input: '/a', refetch: 'same-call' },
      { ...freezeBlock(S.plan[2]!), label: 'pointer', rule: 'model', tool: 'Read', input: '/c', refetch: 'same-call' },
    ]);
    expect(ledger.map((r) => [r.ordinal, r.verdict, r.sha])).toEqual(S.plan.map((b, i) => [i, labels[i]!.label, b.sha256.slice(0, 12)]));
  });

  it('should refuse a plan with a block that has no label', () => {
    expect(() => freezeLabelled(S.plan, [label(0, 'drop'), label(2, 'pointer')])).toThrow('no label for planned block 1');
  });
});
