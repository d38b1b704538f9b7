import { describe, expect, it } from 'vitest';
import { scriptedModelWindow } from '../../src/scripted/model-window.js';

describe('scriptedModelWindow (the scripted API refuses over the window the real API documents)', () => {
  it('should give the 1M models 1,000,000, dated or not', () => {
    for (const model of [
      'claude-opus-5-5',
      'claude-opus-5',
      'claude-sonnet-5-5',
      'claude-haiku-5-5',
      'claude-fable-5-1',
      'claude-opus-4-6',
      'claude-sonnet-4-6-20260301',
    ]) {
      expect(scriptedModelWindow(model, undefined), model).toBe(1_000_000);
    }
  });

  it('should give every other model 200,000, and a near name no more', () => {
    for (const model of ['claude-sonnet-4-5', 'claude-haiku-4-5', 'claude-opus-4-5', 'claude-opus-4-60', 'xclaude-opus-5', undefined]) {
      expect(scriptedModelWindow(model, undefined), String(model)).toBe(200_000);
    }
  });

  it('should give 1,000,000 with the context-1m beta or a [1m] tag', () => {
    expect(scriptedModelWindow('claude-sonnet-4-5', 'prompt-caching-2024-07-31, context-1m-2025-08-07')).toBe(1_000_000);
    expect(scriptedModelWindow('claude-sonnet-4-5', ['context-1m-2025-08-07'])).toBe(1_000_000);
    expect(scriptedModelWindow('claude-sonnet-4-5[1m]', undefined)).toBe(1_000_000);
  });
});
