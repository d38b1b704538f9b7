import { describe, expect, it } from 'vitest';
import { PREFIX_CHECK_MODELS, runsPrefixCheck } from '../../../src/core/thinking/prefix-check-models.js';

describe('runsPrefixCheck', () => {
  it('should match every model of the docs table and its dated variants', () => {
    for (const id of PREFIX_CHECK_MODELS) {
      expect(runsPrefixCheck(id, false)).toBe(true);
      expect(runsPrefixCheck(`${id}-20261001`, false)).toBe(true);
    }
  });

  it('should not match older models, neighbours or a missing model', () => {
    for (const model of ['claude-opus-4-7', 'claude-opus-5-5x', 'claude-fable-5', 'claude-fable-5-3', 'claude-sonnet-5-5-preview', '']) {
      expect(runsPrefixCheck(model, false)).toBe(false);
    }
    expect(runsPrefixCheck(undefined, false)).toBe(false);
  });

  it('should match any model once the conversation was seen refusing an edit', () => {
    expect(runsPrefixCheck('some-proxy-alias', true)).toBe(true);
    expect(runsPrefixCheck(undefined, true)).toBe(true);
  });
});
