import { describe, expect, it } from 'vitest';
import { codexReleaseOf, OPENAI_MODEL_WINDOWS, openAiModelWindow } from '../../../src/core/openai/model-windows.js';

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

  it("should measure a Codex before 0.171.0 against 0.169.0's list, where gpt-6.1-sol is 272,000, and name the release from its user-agent", () => {
    const old = codexReleaseOf('codex_exec/0.169.0 (Debian 12.0.0; x86_64) unknown (codex_exec; 0.169.0)');
    expect(old).toEqual([0, 169, 0]);
    expect(openAiModelWindow('gpt-6.1-sol', old)).toBe(272_000);
    expect(openAiModelWindow('gpt-6.1-sol', [0, 170, 9])).toBe(272_000);
    expect(openAiModelWindow('gpt-6.1-sol', [0, 171, 0])).toBe(500_000);
    expect(openAiModelWindow('gpt-6.1-sol', [1, 0, 0])).toBe(500_000);
    expect(openAiModelWindow('gpt-6.1-sol')).toBe(500_000);
    // Where the lists agree, the release changes nothing.
    expect(openAiModelWindow('gpt-6.2-sol', old)).toBe(500_000);
    expect(openAiModelWindow('gpt-5.5', old)).toBe(272_000);
    for (const other of [undefined, '', 'curl/8.0', 'Mozilla/5.0', 'codex_exec/abc']) expect(codexReleaseOf(other)).toBeUndefined();
    expect(codexReleaseOf('codex_cli_rs/0.171.0 (Mac OS 15.1; arm64)')).toEqual([0, 171, 0]);
  });
});
