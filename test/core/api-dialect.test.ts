import { describe, expect, it } from 'vitest';
import { checkRewrite } from '../../src/core/epochs/tool-results/check-tool-results.js';
import { freezeBlock, planElision } from '../../src/core/plan-elision.js';
import { indexResponses } from '../../src/core/openai/responses-index.js';
import { indexTranscript } from '../../src/core/messages/transcript-index.js';
import { MESSAGES_API } from '../../src/core/dialects/messages.js';
import { RESPONSES_API } from '../../src/core/dialects/responses.js';
import { rewriteRequest } from '../../src/core/epochs/tool-results/tool-results.js';
import type { ApiDialect } from '../../src/core/dialects/dialect.js';
import { responsesBody } from './openai/openai-bodies.js';
import { conversation, filler, sha256 } from './bodies.js';
import { ELIDED_DIR, mustIndexAs } from './round-trip.js';

describe('MESSAGES_API', () => {
  it('should be the Messages index under the name messages', () => {
    // Arrange: the constant.

    // Act
    const { name, index } = MESSAGES_API;

    // Assert
    expect(name).toBe('messages');
    expect(index).toBe(indexTranscript);
  });
});

describe('rewriteRequest and checkRewrite with an api', () => {
  const body = conversation([filler(2000, 1), filler(2000, 2)]);
  const frozen = planElision(body, mustIndexAs(MESSAGES_API, body), { keepRecent: 0, minBytes: 1024 }, sha256).map(freezeBlock);

  it('should give the same bytes with the Messages dialect as without one', () => {
    // Arrange: a Messages body and its plan.

    // Act
    const implicit = rewriteRequest(body, frozen, { elidedDir: ELIDED_DIR, sha256 });
    const explicit = rewriteRequest(body, frozen, { elidedDir: ELIDED_DIR, sha256, api: MESSAGES_API });

    // Assert
    expect(implicit.kind).toBe('applied');
    expect(explicit.body).toEqual(implicit.body);
  });

  it('should index an OpenAI body and its output with the dialect it is given', () => {
    // Arrange: a dialect that counts its calls and otherwise reads Responses bodies.
    let calls = 0;
    const counting: ApiDialect = { ...RESPONSES_API, index: (b) => (calls++, indexResponses(b)) };
    const openAi = responsesBody([filler(2000, 1), filler(2000, 2)]);
    const openAiFrozen = planElision(openAi, mustIndexAs(RESPONSES_API, openAi), { keepRecent: 0, minBytes: 1024 }, sha256).map(freezeBlock);

    // Act
    const outcome = rewriteRequest(openAi, openAiFrozen, { elidedDir: ELIDED_DIR, sha256, api: counting });

    // Assert
    expect(outcome.kind).toBe('applied');
    expect(calls).toBe(2); // the input, then the self-check's re-index of the output
  });

  it('should fail the self-check when the output does not index in the dialect given', () => {
    // Arrange
    const outcome = rewriteRequest(body, frozen, { elidedDir: ELIDED_DIR, sha256 });
    if (outcome.kind !== 'applied') throw new Error('expected a rewrite');
    const stubbed = frozen.map((b) => ({ ordinal: b.ordinal, splice: { start: 0, end: 0, bytes: new Uint8Array() } }));

    // Act
    const failure = checkRewrite(body, mustIndexAs(MESSAGES_API, body), outcome.body, stubbed, RESPONSES_API);

    // Assert
    expect(failure).toMatch(/^output does not index: not_messages_body/);
  });
});
