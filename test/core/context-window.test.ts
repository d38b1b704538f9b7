import { describe, expect, it } from 'vitest';
import { decideContextWindow, modelContextWindow } from '../../src/core/context-window.js';

describe('decideContextWindow', () => {
  it('should take --window first, then the model, then the context-1m beta, then 200,000', () => {
    expect(decideContextWindow({ override: 50_000, model: 'claude-opus-5-5', betas: 'context-1m-2025-08-07' })).toBe(50_000);
    expect(decideContextWindow({ model: 'claude-opus-5-5' })).toBe(1_000_000);
    expect(decideContextWindow({ model: 'claude-sonnet-4-5', betas: ['x', 'context-1m-2025-08-07'] })).toBe(1_000_000);
    expect(decideContextWindow({ model: 'claude-sonnet-4-5', betas: 'interleaved-thinking-2025-05-14' })).toBe(200_000);
    expect(decideContextWindow({})).toBe(200_000);
  });

  it('should not take a beta whose name only ends in context-1m', () => {
    expect(decideContextWindow({ betas: 'no-context-1m-2025' })).toBe(200_000);
  });
});

describe('modelContextWindow', () => {
  it('should give Opus 5 and Opus 5.5 a 1M window, dated or not', () => {
    expect(modelContextWindow('claude-opus-5')).toBe(1_000_000);
    expect(modelContextWindow('claude-opus-5-5')).toBe(1_000_000);
    expect(modelContextWindow('claude-opus-5-5-20270101')).toBe(1_000_000);
  });

  it('should give the other 1M models of the docs theirs', () => {
    for (const model of [
      'claude-sonnet-5',
      'claude-sonnet-5-5',
      'claude-haiku-5-5',
      'claude-fable-5',
      'claude-fable-5-1',
      'claude-mythos-5',
      'claude-opus-4-6',
      'claude-opus-4-7',
      'claude-opus-4-8',
      'claude-sonnet-4-6',
    ]) {
      expect(modelContextWindow(model), model).toBe(1_000_000);
    }
  });

  it('should know nothing of 200K models and unknown ids, so the beta and the default decide', () => {
    for (const model of ['claude-sonnet-4-5-20250929', 'claude-haiku-4-5-20251001', 'claude-opus-4-5', 'claude-opus-4-1', 'claude-opus-4-60', 'gpt-5', '']) {
      expect(modelContextWindow(model), model).toBeUndefined();
    }
  });

  it('should read cloud ids and the [1m] tag', () => {
    expect(modelContextWindow('anthropic.claude-opus-4-8-v1:0')).toBe(1_000_000);
    expect(modelContextWindow('claude-opus-5@20260724')).toBe(1_000_000);
    expect(modelContextWindow('claude-sonnet-4-5[1m]')).toBe(1_000_000);
    expect(modelContextWindow('Claude-Opus-5-5')).toBe(1_000_000);
  });
});
