import { describe, expect, it } from 'vitest';
import type { ApiDialect } from '../../../src/core/dialects/dialect.js';
import { MESSAGES_API } from '../../../src/core/dialects/messages.js';
import { applyEpochs, noneApplied, thinkingOf } from '../../../src/core/epochs/apply.js';
import { SPANS } from '../../../src/core/epochs/spans/spans.js';
import { TOOL_RESULTS } from '../../../src/core/epochs/tool-results/tool-results.js';
import type { FrozenThinking } from '../../../src/core/thinking/thinking-types.js';
import { sha256, utf8 } from '../bodies.js';

const FROZEN_THINKING = [{ ordinal: 0 } as unknown as FrozenThinking];

describe('thinkingOf', () => {
  it('should judge frozen thinking by what the API supports, not by its name', () => {
    // Arrange: a Messages-named dialect that says it has no thinking blocks.
    const without: ApiDialect = { ...MESSAGES_API, supports: { ...MESSAGES_API.supports, thinking: false } };

    // Act
    const none = thinkingOf({ sha256, api: without, thinking: FROZEN_THINKING });
    const some = thinkingOf({ sha256, api: MESSAGES_API, thinking: FROZEN_THINKING });
    const byDefault = thinkingOf({ sha256, thinking: FROZEN_THINKING });

    // Assert
    expect(none).toEqual([]);
    expect(some).toBe(FROZEN_THINKING);
    expect(byDefault).toBe(FROZEN_THINKING);
  });
});

describe('applyEpochs', () => {
  it.each([
    ['tool results', () => applyEpochs(TOOL_RESULTS, utf8('not json'), [], { sha256, elidedDir: '/e' }), 'no frozen blocks'],
    ['spans', () => applyEpochs(SPANS, utf8('not json'), [], { sha256, spansDir: '/s' }), 'no frozen spans'],
  ] as const)('should pass %s through as no_epoch when nothing is frozen, naming the kind', (_name, act, detail) => {
    // Arrange, act
    const outcome = act();

    // Assert
    expect(outcome).toEqual({ kind: 'passthrough', body: utf8('not json'), reason: 'no_epoch', detail, skipped: [] });
  });
});

describe('noneApplied', () => {
  it("should name the kind's own missing-file reason when every skip is a missing file", () => {
    // Arrange
    const body = utf8('{}');
    const skipped = [{ sha256: 'a', first: 1, reason: 'span_file_missing' as const }];

    // Act
    const outcome = noneApplied(SPANS, body, { verdicts: ['span_file_missing'], applied: [], splices: [], skipped, bytes: 0, messages: 0 });

    // Assert
    expect(outcome).toEqual({ kind: 'passthrough', body, reason: 'span_file_missing', detail: '1 frozen spans skipped', skipped });
  });
});
