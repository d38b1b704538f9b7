import { describe, expect, it } from 'vitest';
import { checkEpochLedger } from '../../src/core/labels/ledger.js';
import { CONVERSATION_FORMAT, type ConversationRecord } from '../../src/core/epoch-types.js';
import { LABELS_POLICY_VERSION, type BlockLabel } from '../../src/core/labels/label-types.js';
import { planRecord } from '../../src/core/plan-record.js';
import { POLICY_NAME, POLICY_VERSION, type PlannedBlock } from '../../src/core/plan-elision.js';
import { toolResultsLatch } from '../../src/core/epochs/tool-results/tool-results-latch.js';
import { sha256 } from './bodies.js';
import { blocksOf } from '../../src/core/epoch-items.js';

const hex = (n: number): string => n.toString(16).padStart(64, '0');

function planned(ordinal: number, raw = false): PlannedBlock {
  const text = new Uint8Array([ordinal]);
  const block = { ordinal, toolUseId: `toolu_${ordinal}`, bytes: 1, sha256: hex(ordinal), jsonBytes: 3, jsonSha256: hex(100 + ordinal), text };
  return raw ? { ...block, rawSha256: hex(200 + ordinal), raw: new Uint8Array([9]) } : block;
}

const REQUEST = {
  added: [planned(0), planned(3, true)],
  reading: { contextTokens: 150_000, window: 200_000, epochsApplied: 0, requestBytes: 600_000 },
  firstPrompt: 'fix the tests',
  model: 'claude-test',
  agentId: undefined,
};
const INPUT = { key: hex(7), current: undefined as ConversationRecord | undefined, request: REQUEST, threshold: 0.7, now: '2026-01-02T03:04:05.000Z' };
const TOOL_RESULTS = toolResultsLatch({ policy: { keepRecent: 6, minBytes: 1024 }, elidedDir: '/state/elided', sha256 });

/** A tool-result epoch's record: the kind's part from its planner, the rest from planRecord. */
function planToolResults(input: typeof INPUT & { readonly request: typeof REQUEST & { readonly labels?: readonly BlockLabel[] } }) {
  const { request, ...rest } = input;
  const { added, labels, ...facts } = request;
  return planRecord({ ...rest, facts, part: TOOL_RESULTS.epochOf({ added, ...(labels === undefined ? {} : { labels }) }, undefined) });
}

describe('planRecord', () => {
  it("should start a record with epoch 1 at the time given, and plan each block's files", () => {
    const plan = planToolResults(INPUT);

    expect(plan.record).toMatchObject({
      format: CONVERSATION_FORMAT,
      key: hex(7),
      agentId: null,
      firstPrompt: 'fix the tests',
      model: 'claude-test',
      createdAt: INPUT.now,
    });
    expect(plan.record.epochs).toEqual([
      {
        n: 1,
        latchedAt: INPUT.now,
        kind: 'tool_results',
        trigger: 'threshold',
        reason: { fullness: 0.75, threshold: 0.7, window: 200_000, contextTokens: 150_000 },
        policy: { name: POLICY_NAME, version: POLICY_VERSION, keepRecent: 6, minBytes: 1024 },
        items: {
          tool_results: [
            { ordinal: 0, toolUseId: 'toolu_0', bytes: 1, sha256: hex(0), jsonBytes: 3, jsonSha256: hex(100) },
            { ordinal: 3, toolUseId: 'toolu_3', bytes: 1, sha256: hex(3), jsonBytes: 3, jsonSha256: hex(103), rawSha256: hex(203) },
          ],
        },
      },
    ]);
    expect(plan.originals.map((f) => [f.sha256, f.ext])).toEqual([
      [hex(0), 'txt'],
      [hex(3), 'txt'],
      [hex(203), 'json'],
    ]);
  });

  it('should append the next epoch to a record and keep the rest of it', () => {
    const current: ConversationRecord = planToolResults({ ...INPUT, now: '2026-01-01T00:00:00.000Z' }).record;

    const plan = planToolResults({ ...INPUT, current, request: { ...REQUEST, added: [planned(5)], firstPrompt: 'other' } });

    expect(plan.record.createdAt).toBe('2026-01-01T00:00:00.000Z');
    expect(plan.record.firstPrompt).toBe('fix the tests');
    expect(plan.record.epochs.map((e) => [e.n, blocksOf(e).map((b) => b.ordinal)])).toEqual([
      [1, [0, 3]],
      [2, [5]],
    ]);
  });

  it('should latch a version 3 epoch when labels are given: labelled blocks, a ledger, no file for a kept block', () => {
    // Arrange
    const label = (ordinal: number, verdict: BlockLabel['label']): BlockLabel => ({
      ordinal,
      toolUseId: `toolu_${ordinal}`,
      tool: 'Bash',
      input: 'make',
      label: verdict,
      rule: verdict === 'keep' ? 'model' : 'default',
      score: verdict === 'keep' ? 0.2 : 'local',
      refetch: 'elided-file',
    });
    const labels = [label(0, 'keep'), label(3, 'pointer')];

    // Act
    const plan = planToolResults({ ...INPUT, request: { ...REQUEST, labels } });

    // Assert
    const [epoch] = plan.record.epochs;
    expect(epoch?.policy.version).toBe(LABELS_POLICY_VERSION);
    expect(blocksOf(epoch!)).toEqual([
      {
        ordinal: 3,
        toolUseId: 'toolu_3',
        bytes: 1,
        sha256: hex(3),
        jsonBytes: 3,
        jsonSha256: hex(103),
        rawSha256: hex(203),
        label: 'pointer',
        rule: 'default',
        tool: 'Bash',
        input: 'make',
        refetch: 'elided-file',
      },
    ]);
    expect(epoch?.ledger?.map((r) => [r.ordinal, r.verdict, r.score])).toEqual([
      [0, 'keep', 0.2],
      [3, 'pointer', 'local'],
    ]);
    expect(checkEpochLedger(epoch!)).toEqual([]);
    expect(plan.originals.map((f) => [f.sha256, f.ext])).toEqual([
      [hex(3), 'txt'],
      [hex(203), 'json'],
    ]);
  });

  it("should record an overflow epoch's trigger, the tokens the API counted and the maximum it named", () => {
    const request = { ...REQUEST, reading: { ...REQUEST.reading, contextTokens: 215_000 }, trigger: 'overflow' as const, limit: 200_000 };

    const plan = planToolResults({ ...INPUT, request });

    const [epoch] = plan.record.epochs;
    expect(epoch?.trigger).toBe('overflow');
    expect(epoch?.reason).toEqual({ fullness: 1.075, threshold: 0.7, window: 200_000, contextTokens: 215_000, limit: 200_000 });
  });
});
