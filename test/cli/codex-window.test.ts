import { describe, expect, it } from 'vitest';
import { codexModelArg, codexWindowLine } from '../../src/cli/codex-window.js';

describe('codexModelArg', () => {
  it('should read -m, --model, --model= and -c model=, the last one winning', () => {
    expect(codexModelArg(['exec', '-m', 'gpt-6.1-sol', 'hi'])).toBe('gpt-6.1-sol');
    expect(codexModelArg(['--model=gpt-6.2-astra'])).toBe('gpt-6.2-astra');
    expect(codexModelArg(['-c', 'model="gpt-5.5"', '--model', 'gpt-6.2-sol'])).toBe('gpt-6.2-sol');
    expect(codexModelArg(['--config=model=gpt-6-luna'])).toBe('gpt-6-luna');
    expect(codexModelArg(['-c', 'model_reasoning_effort="high"', 'exec', 'hi'])).toBeUndefined();
  });
});

describe('codexWindowLine', () => {
  it("should name a listed model's window, and an unlisted model as unknown with the assumption it is measured against", () => {
    expect(codexWindowLine('gpt-6.2-sol', undefined)).toContain('gpt-6.2-sol: fullness against its 500,000-token window');
    expect(codexWindowLine('gpt-6.2-sol', undefined)).not.toContain('before 0.171.0');
    expect(codexWindowLine('gpt-6.1-sol', undefined)).toContain("500,000-token window (Codex 0.171.0's model list; 272,000 from a Codex before 0.171.0");
    const unknown = codexWindowLine('gpt-7-nova', undefined);
    expect(unknown).toContain('"gpt-7-nova" is unknown to ctxshed');
    expect(unknown).toContain('200,000 tokens, an assumption: pass --window');
  });

  it('should let --window win, and say the model is read per request when none is named', () => {
    expect(codexWindowLine('gpt-7-nova', 128_000)).toBe('ctxshed: codex measured against --window 128,000 tokens, whatever its model');
    expect(codexWindowLine(undefined, undefined)).toContain('read from each request');
  });
});
