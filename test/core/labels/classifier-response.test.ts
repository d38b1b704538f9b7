import { describe, expect, it } from 'vitest';
import { CLASSIFIER_LABELS } from '../../../src/core/labels/classifier-request.js';
import { applyClassifierScores, decideFromScores, parseClassifierResponse, type LabelScores } from '../../../src/core/labels/classifier-response.js';
import type { BlockLabel } from '../../../src/core/labels/label-types.js';

function scores(keep: number, drop: number, pointer: number): Record<string, number> {
  return { [CLASSIFIER_LABELS.keep]: keep, [CLASSIFIER_LABELS.drop]: drop, [CLASSIFIER_LABELS.pointer]: pointer };
}

function response(text: string, usage: unknown = { input_tokens: 900, output_tokens: 80 }): string {
  return JSON.stringify({ id: 'msg_1', type: 'message', role: 'assistant', content: [{ type: 'text', text }], usage });
}

describe('decideFromScores', () => {
  it.each([
    ['drop at 0.9', { keep: 0.1, drop: 0.9, pointer: 0.2 }, 'drop', 0.9],
    ['not drop below 0.9, pointer at 0.5', { keep: 0.1, drop: 0.89, pointer: 0.5 }, 'pointer', 0.5],
    ['pointer at 0.62', { keep: 0.3, drop: 0.2, pointer: 0.62 }, 'pointer', 0.62],
    ['keep when unsure', { keep: 0.2, drop: 0.89, pointer: 0.49 }, 'keep', 0.2],
    ['drop over pointer when both pass', { keep: 0, drop: 0.95, pointer: 0.99 }, 'drop', 0.95],
  ] as Array<[string, LabelScores, string, number]>)("should give %s, on the label's own score", (_case, s, label, score) => {
    expect(decideFromScores(s)).toEqual({ label, score });
  });
});

describe('parseClassifierResponse', () => {
  it("should read each result's scores by the full label names, and the usage", () => {
    // Arrange
    const body = response(
      JSON.stringify({
        results: [
          { id: 'toolu_14', scores: scores(0.05, 0.9, 0.3) },
          { id: 'toolu_8', scores: scores(0.3, 0.1, 0.62) },
        ],
      }),
    );

    // Act
    const answer = parseClassifierResponse(body);

    // Assert
    expect(answer?.scores).toEqual(
      new Map([
        ['toolu_14', { keep: 0.05, drop: 0.9, pointer: 0.3 }],
        ['toolu_8', { keep: 0.3, drop: 0.1, pointer: 0.62 }],
      ]),
    );
    expect(answer?.usage).toEqual({ inputTokens: 900, outputTokens: 80 });
  });

  it('should find the JSON inside a code fence or a sentence', () => {
    const body = response(`Here you go:\n\`\`\`json\n${JSON.stringify({ results: [{ id: 'a', scores: scores(1, 0, 0) }] })}\n\`\`\``);
    expect(parseClassifierResponse(body)?.scores.get('a')).toEqual({ keep: 1, drop: 0, pointer: 0 });
  });

  it('should leave out a result with a missing, non-numeric or out-of-range score, and a repeated id', () => {
    // Arrange
    const partial = { [CLASSIFIER_LABELS.keep]: 0.5, [CLASSIFIER_LABELS.drop]: 0.5 };
    const body = response(
      JSON.stringify({
        results: [
          { id: 'missing', scores: partial },
          { id: 'text', scores: { ...scores(0, 0, 0), [CLASSIFIER_LABELS.drop]: '0.9' } },
          { id: 'high', scores: scores(0, 1.5, 0) },
          { id: 'twice', scores: scores(0, 0.95, 0) },
          { id: 'twice', scores: scores(1, 0, 0) },
          { scores: scores(0, 0, 1) },
        ],
      }),
    );

    // Act
    const answer = parseClassifierResponse(body);

    // Assert
    expect([...(answer?.scores.keys() ?? [])]).toEqual(['twice']);
    expect(answer?.scores.get('twice')?.drop).toBe(0.95);
  });

  it.each([
    ['not JSON', 'upstream error'],
    ['an error body', JSON.stringify({ type: 'error', error: { type: 'overloaded_error', message: 'x' } })],
  ])('should give undefined for %s', (_case, body) => {
    expect(parseClassifierResponse(body)).toBeUndefined();
  });

  it('should give no scores for an answer that is not the asked shape, and no usage when none is reported', () => {
    expect(parseClassifierResponse(response('I cannot help with that.', null))).toEqual({ scores: new Map() });
  });
});

describe('applyClassifierScores', () => {
  const base: BlockLabel = {
    ordinal: 1,
    toolUseId: 'toolu_1',
    tool: 'Bash',
    input: 'npm test',
    label: 'pointer',
    rule: 'default',
    score: 'local',
    refetch: 'elided-file',
  };

  it('should apply the decision to a default-labelled chunk it scored, as rule model', () => {
    expect(applyClassifierScores([base], new Map([['toolu_1', { keep: 0.1, drop: 0.9, pointer: 0.3 }]]))).toEqual([
      { ...base, label: 'drop', rule: 'model', score: 0.9 },
    ]);
  });

  it("should leave a rule's label and an unscored chunk as they were", () => {
    // Arrange
    const ruled: BlockLabel = { ...base, ordinal: 2, toolUseId: 'toolu_2', label: 'drop', rule: 'superseded' };
    const unscored: BlockLabel = { ...base, ordinal: 3, toolUseId: 'toolu_3' };
    const all = new Map([['toolu_2', { keep: 1, drop: 0, pointer: 0 }]]);

    // Act, Assert
    expect(applyClassifierScores([ruled, unscored], all)).toEqual([ruled, unscored]);
  });
});
