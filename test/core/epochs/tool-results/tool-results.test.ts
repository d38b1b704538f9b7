import { describe, expect, it } from 'vitest';
import type { FrozenBlock } from '../../../../src/core/epoch-types.js';
import { encodeJsonString } from '../../../../src/core/json-string.js';
import { freezeBlock, planElision } from '../../../../src/core/plan-elision.js';
import { applyIndexed, noneApplied } from '../../../../src/core/epochs/apply.js';
import { rewriteRequest, TOOL_RESULTS, type RewriteOptions } from '../../../../src/core/epochs/tool-results/tool-results.js';
import { applySplices } from '../../../../src/core/splices.js';
import { renderStub } from '../../../../src/core/stub.js';
import { conversation, filler, fromUtf8, mustIndex, plain, rawBytes, replaceNth, sha256, utf8 } from '../../bodies.js';

const DIR = '/state/elided';
const OPTIONS: RewriteOptions = { elidedDir: DIR, sha256 };
const BIG = 2000;

/** Eight big results (ordinals 0 and 1 eligible under the default policy), the 2nd with is_error. */
function eightResults(): Uint8Array {
  return conversation(
    Array.from({ length: 8 }, (_, i) => `${filler(BIG, i)} é`),
    { extra: [{}, { is_error: true }] },
  );
}

function frozenOf(body: Uint8Array, policy = { keepRecent: 6, minBytes: 1024 }): FrozenBlock[] {
  return planElision(body, mustIndex(body), policy, sha256).map(freezeBlock);
}

/** The expected output, built the obvious way: each frozen block's content value replaced by its stub token. */
function expectedRewrite(body: Uint8Array, frozen: readonly FrozenBlock[]): Uint8Array {
  const index = mustIndex(body);
  return applySplices(
    body,
    frozen.map((b) => ({ ...index.toolResults[b.ordinal]!.content, bytes: encodeJsonString(utf8(renderStub(b, DIR))) })).sort((x, y) => x.start - y.start),
  );
}

describe('rewriteRequest', () => {
  it('should replace exactly the content values of the frozen blocks by their stubs', () => {
    // Arrange
    const body = eightResults();
    const frozen = frozenOf(body);

    // Act
    const outcome = rewriteRequest(body, frozen, OPTIONS);

    // Assert
    expect(frozen.map((b) => b.ordinal)).toEqual([0, 1]);
    expect(outcome).toMatchObject({ kind: 'applied', stubs: 2, bytesTaken: frozen[0]!.bytes + frozen[1]!.bytes, skipped: [] });
    expect(plain(outcome.body)).toEqual(expectedRewrite(body, frozen));
  });

  it("should keep the block's other keys, their order and is_error around the stub", () => {
    // Arrange
    const body = eightResults();
    const frozen = frozenOf(body);

    // Act
    const out = fromUtf8(rewriteRequest(body, frozen, OPTIONS).body);

    // Assert
    const stub = JSON.stringify(renderStub(frozen[1]!, DIR));
    expect(out).toContain(`{"tool_use_id":"toolu_1","type":"tool_result","content":${stub},"is_error":true}`);
    expect(JSON.parse(out)).toMatchObject({ model: 'claude-test', max_tokens: 100 });
  });

  it('should accept the frozen blocks in any order and give the same bytes', () => {
    // Arrange
    const body = eightResults();
    const frozen = frozenOf(body);

    // Act
    const outcome = rewriteRequest(body, [...frozen].reverse(), OPTIONS);

    // Assert
    expect(plain(outcome.body)).toEqual(plain(rewriteRequest(body, frozen, OPTIONS).body));
  });

  it('should give the same result with an index passed in as without', () => {
    // Arrange
    const body = eightResults();
    const frozen = frozenOf(body);

    // Act
    const withIndex = rewriteRequest(body, frozen, { ...OPTIONS, index: mustIndex(body) });

    // Assert
    expect(withIndex).toEqual(rewriteRequest(body, frozen, OPTIONS));
  });

  it('should stub frozen blocks whatever policy froze them, e.g. recent ones', () => {
    // Arrange
    const body = eightResults();
    const frozen = frozenOf(body).concat(frozenOf(body, { keepRecent: 0, minBytes: 0 }).slice(-1));

    // Act
    const outcome = rewriteRequest(body, frozen, OPTIONS);

    // Assert
    expect(outcome).toMatchObject({ kind: 'applied', stubs: 3 });
  });

  it('should pass the very same bytes through when nothing is frozen', () => {
    // Arrange
    const body = eightResults();

    // Act
    const outcome = rewriteRequest(body, [], OPTIONS);

    // Assert
    expect(outcome).toMatchObject({ kind: 'passthrough', reason: 'no_epoch', skipped: [] });
    expect(outcome.body).toBe(body);
  });

  it.each([
    ['not_json', utf8('{"messages":[{"role":"user","content":"x"}]')],
    ['not_messages_body', utf8('{"prompt":"x"}')],
    ['duplicate_key', utf8('{"messages":[],"messages":[]}')],
    ['unknown_shape', utf8('{"messages":[{"role":"user","content":7}]}')],
  ])('should pass through a body it cannot index, with reason %s', (reason, body) => {
    // Arrange
    const frozen = frozenOf(eightResults());

    // Act
    const outcome = rewriteRequest(body, frozen, OPTIONS);

    // Assert
    expect(outcome).toMatchObject({ kind: 'passthrough', reason });
    expect(outcome.body).toBe(body);
  });

  it.each([
    ['id_mismatch', (b: FrozenBlock): FrozenBlock => ({ ...b, toolUseId: 'toolu_other' })],
    ['hash_mismatch', (b: FrozenBlock): FrozenBlock => ({ ...b, jsonSha256: '0'.repeat(64) })],
    ['hash_mismatch', (b: FrozenBlock): FrozenBlock => ({ ...b, jsonBytes: b.jsonBytes + 1 })],
    ['missing_block', (b: FrozenBlock): FrozenBlock => ({ ...b, ordinal: 99 })],
    ['missing_block', (b: FrozenBlock): FrozenBlock => ({ ...b, ordinal: -1 })],
  ])('should skip a block with %s and still stub the others', (reason, spoil) => {
    // Arrange
    const body = eightResults();
    const [first, second] = frozenOf(body);
    const spoiled = spoil(first!);

    // Act
    const outcome = rewriteRequest(body, [spoiled, second!], OPTIONS);

    // Assert
    expect(outcome).toMatchObject({ kind: 'applied', stubs: 1, bytesTaken: second!.bytes, skipped: [{ ordinal: spoiled.ordinal, reason }] });
    expect(plain(outcome.body)).toEqual(expectedRewrite(body, [second!]));
  });

  it('should skip a block whose text changed since it was frozen (hash_mismatch)', () => {
    // Arrange
    const frozen = frozenOf(eightResults());
    const edited = replaceNth(eightResults(), ' é"', ' è"');

    // Act
    const outcome = rewriteRequest(edited, frozen, OPTIONS);

    // Assert
    expect(outcome).toMatchObject({ kind: 'applied', stubs: 1, skipped: [{ ordinal: 0, reason: 'hash_mismatch' }] });
  });

  it('should skip a block frozen canonical but now sent with escapes for the same text (hash_mismatch)', () => {
    // Arrange: same text, é now written \u00e9, so the stub could not stand for these bytes.
    const frozen = frozenOf(eightResults());
    const escaped = replaceNth(eightResults(), ' é"', ' \\u00e9"');

    // Act
    const outcome = rewriteRequest(escaped, frozen, OPTIONS);

    // Assert
    expect(frozen[0]?.rawSha256).toBeUndefined();
    expect(outcome).toMatchObject({ kind: 'applied', stubs: 1, skipped: [{ ordinal: 0, reason: 'hash_mismatch' }] });
  });

  it('should stub a block frozen with its raw JSON when the same raw bytes come again, and skip it when they are canonical now', () => {
    // Arrange
    const escaped = replaceNth(eightResults(), ' é"', ' \\u00e9"');
    const frozen = frozenOf(escaped);

    // Act
    const again = rewriteRequest(escaped, frozen, OPTIONS);
    const canonical = rewriteRequest(eightResults(), frozen, OPTIONS);

    // Assert
    expect(frozen[0]?.rawSha256).toBe(sha256(utf8(JSON.stringify(`${filler(BIG, 0)} é`).replace('é', '\\u00e9'))));
    expect(again).toMatchObject({ kind: 'applied', stubs: 2, skipped: [] });
    expect(fromUtf8(again.body)).toContain(`${frozen[0]!.rawSha256}.json`);
    expect(canonical).toMatchObject({ kind: 'applied', stubs: 1, skipped: [{ ordinal: 0, reason: 'hash_mismatch' }] });
  });

  it('should skip a block whose elided file is missing, asking isAvailable for each block', () => {
    // Arrange
    const body = eightResults();
    const frozen = frozenOf(body);
    const asked: number[] = [];
    const isAvailable = (b: FrozenBlock) => {
      asked.push(b.ordinal);
      return b.ordinal !== 0;
    };

    // Act
    const outcome = rewriteRequest(body, frozen, { ...OPTIONS, isAvailable });

    // Assert
    expect(asked).toEqual([0, 1]);
    expect(outcome).toMatchObject({ kind: 'applied', stubs: 1, skipped: [{ ordinal: 0, reason: 'file_missing' }] });
  });

  it('should pass through with elided_file_missing when every skipped block lacks its file', () => {
    // Arrange
    const body = eightResults();
    const frozen = frozenOf(body);

    // Act
    const outcome = rewriteRequest(body, frozen, { ...OPTIONS, isAvailable: () => false });

    // Assert
    expect(outcome).toMatchObject({
      kind: 'passthrough',
      reason: 'elided_file_missing',
      skipped: [
        { ordinal: 0, reason: 'file_missing' },
        { ordinal: 1, reason: 'file_missing' },
      ],
    });
    expect(outcome.body).toBe(body);
  });

  it('should pass through with epoch_mismatch when no frozen block matches', () => {
    // Arrange: the transcript was compacted; ordinals now point at other blocks.
    const frozen = frozenOf(eightResults());
    const compacted = utf8(fromUtf8(conversation([filler(BIG, 50), filler(BIG, 51)])).replace(/toolu_/g, 'toolu_new_'));

    // Act
    const outcome = rewriteRequest(compacted, frozen, OPTIONS);

    // Assert
    expect(outcome).toMatchObject({
      kind: 'passthrough',
      reason: 'epoch_mismatch',
      skipped: [
        { ordinal: 0, reason: 'id_mismatch' },
        { ordinal: 1, reason: 'id_mismatch' },
      ],
    });
    expect(outcome.body).toBe(compacted);
  });

  it('should pass through with epoch_mismatch when the skips are a mix of missing files and mismatches', () => {
    // Arrange
    const body = eightResults();
    const [first, second] = frozenOf(body);

    // Act
    const outcome = rewriteRequest(body, [{ ...first!, ordinal: 42 }, second!], { ...OPTIONS, isAvailable: () => false });

    // Assert
    expect(outcome).toMatchObject({
      kind: 'passthrough',
      reason: 'epoch_mismatch',
      skipped: [
        { ordinal: 42, reason: 'missing_block' },
        { ordinal: 1, reason: 'file_missing' },
      ],
    });
  });

  it('should never throw: a failing sha256 or isAvailable becomes internal_error with the input bytes', () => {
    // Arrange
    const body = eightResults();
    const frozen = frozenOf(body);
    const boom = () => {
      throw new Error('boom');
    };

    // Act
    const outcomes = [rewriteRequest(body, frozen, { ...OPTIONS, sha256: boom }), rewriteRequest(body, frozen, { ...OPTIONS, isAvailable: boom })];

    // Assert
    for (const outcome of outcomes) {
      expect(outcome).toMatchObject({ kind: 'passthrough', reason: 'internal_error', detail: 'boom' });
      expect(outcome.body).toBe(body);
    }
  });

  it('should never throw on bytes that are not a body', () => {
    // Arrange
    const frozen = frozenOf(eightResults());
    const inputs = [
      new Uint8Array(0),
      rawBytes([0x1f, 0x8b, 0, 0]),
      utf8('null'),
      utf8('{"messages":[{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_0","content":"\\ud800"}]}]}'),
    ];

    // Act
    const outcomes = inputs.map((body) => rewriteRequest(body, frozen, OPTIONS));

    // Assert
    outcomes.forEach((outcome, i) => {
      expect(outcome.kind).toBe('passthrough');
      expect(outcome.body).toBe(inputs[i]);
    });
  });
});

describe('applyIndexed', () => {
  it("should give rewriteRequest's outcome, each block's verdict and the output's index", () => {
    // Arrange
    const body = eightResults();
    const frozen = [...frozenOf(body), { ...frozenOf(body)[0]!, ordinal: 40 }];

    // Act
    const result = applyIndexed(TOOL_RESULTS, body, mustIndex(body), frozen, OPTIONS);

    // Assert
    expect(result.outcome).toEqual(rewriteRequest(body, frozen, OPTIONS));
    expect(result.verdicts).toEqual(['stubbed', 'stubbed', 'missing_block']);
    expect(result.after?.index).toEqual(mustIndex(result.outcome.body));
  });

  it('should give no output index for a pass-through', () => {
    // Arrange
    const body = eightResults();
    const frozen = frozenOf(body).map((b) => ({ ...b, toolUseId: 'toolu_other' }));

    // Act
    const result = applyIndexed(TOOL_RESULTS, body, mustIndex(body), frozen, OPTIONS);

    // Assert
    expect(result.outcome).toMatchObject({ kind: 'passthrough', reason: 'epoch_mismatch' });
    expect(result.after).toBeUndefined();
    expect(result.verdicts).toEqual(['id_mismatch', 'id_mismatch']);
  });
});

describe('TOOL_RESULTS.judge', () => {
  it("should take a reused verdict instead of checking the block's bytes", () => {
    // Arrange: block 0's bytes no longer match, but its verdict is reused.
    const body = eightResults();
    const frozen = frozenOf(body);
    const stale = [{ ...frozen[0]!, jsonSha256: '0'.repeat(64) }, frozen[1]!];
    const hashed: number[] = [];
    const options = { ...OPTIONS, sha256: (b: Uint8Array) => (hashed.push(b.length), sha256(b)) };

    // Act
    const judged = TOOL_RESULTS.judge(body, mustIndex(body), stale, options, (i) => (i === 0 ? 'stubbed' : undefined));

    // Assert
    expect(judged.verdicts).toEqual(['stubbed', 'stubbed']);
    expect(judged.applied.map((s) => s.ordinal)).toEqual([0, 1]);
    expect(hashed).toHaveLength(1);
    expect(judged.bytes).toBe(frozen[0]!.bytes + frozen[1]!.bytes);
  });

  it('should list skipped blocks in the order of the frozen list', () => {
    // Arrange
    const body = eightResults();
    const [a, b] = frozenOf(body);
    const frozen = [
      { ...b!, toolUseId: 'x' },
      { ...a!, ordinal: 99 },
    ];

    // Act
    const judged = TOOL_RESULTS.judge(body, mustIndex(body), frozen, OPTIONS, undefined);

    // Assert
    expect(judged.skipped).toEqual([
      { ordinal: 1, reason: 'id_mismatch' },
      { ordinal: 99, reason: 'missing_block' },
    ]);
  });
});

describe('noneApplied', () => {
  it.each([
    ['every file missing', ['file_missing', 'file_missing'], 'elided_file_missing'],
    ['any other skip', ['file_missing', 'hash_mismatch'], 'epoch_mismatch'],
  ] as const)('should pass through with %s', (_name, reasons, expected) => {
    // Arrange
    const body = utf8('{}');
    const skipped = reasons.map((reason, ordinal) => ({ ordinal, reason }));

    // Act
    const outcome = noneApplied(TOOL_RESULTS, body, { verdicts: reasons, applied: [], splices: [], skipped, bytes: 0, messages: 0 });

    // Assert
    expect(outcome).toEqual({ kind: 'passthrough', body, reason: expected, detail: '2 frozen blocks skipped', skipped });
  });

  it('should be undefined when a block was stubbed', () => {
    // Arrange
    const body = utf8('{}');

    // Act
    const splice = { start: 0, end: 0, bytes: body };
    const outcome = noneApplied(TOOL_RESULTS, body, {
      verdicts: ['stubbed'],
      applied: [{ ordinal: 0, splice }],
      splices: [splice],
      skipped: [],
      bytes: 1,
      messages: 0,
    });

    // Assert
    expect(outcome).toBeUndefined();
  });
});
