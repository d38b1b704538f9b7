import { describe, expect, it } from 'vitest';
import { OPENAI_MODEL_WINDOWS, openAiModelWindow } from '../../../src/core/index.js';

describe('openAiModelWindow', () => {
  it("should give Codex 0.171.0's windows: gpt-6.2-sol and gpt-6.1-sol 500,000, gpt-6.2-astra 272,000", () => {
    expect(openAiModelWindow('gpt-6.2-sol')).toBe(500_000);
    expect(openAiModelWindow('gpt-6.1-sol')).toBe(500_000);
    expect(openAiModelWindow('gpt-6.2-astra')).toBe(272_000);
    expect(openAiModelWindow('GPT-5.5')).toBe(272_000);
    expect(openAiModelWindow('gpt-daybreak-red-latest')).toBe(372_000);
  });

  it('should take a dated snapshot of a listed model, and name anything else unknown', () => {
    expect(openAiModelWindow('gpt-5.5-2026-08-01')).toBe(272_000);
    for (const unknown of ['gpt-6.3-sol', 'gpt-6.2-sol-mini', 'gpt-6', 'gpt-5.5x', 'claude-opus-5-5', '']) expect(openAiModelWindow(unknown)).toBeUndefined();
  });

  it('should list each model once', () => {
    const models = OPENAI_MODEL_WINDOWS.map((r) => r.model);
    expect(new Set(models).size).toBe(models.length);
  });
});
