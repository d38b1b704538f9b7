import { describe, expect, it } from 'vitest';
import { policyFrom, settingsFrom, thresholdsFrom } from '../../src/cli/settings-options.js';

describe('settingsFrom', () => {
  it('should give nothing for flags left out, so each lever is its mode default', () => {
    expect(settingsFrom({})).toEqual({});
  });

  it('should give the deeper cut only when one of its flags is given, none as none', () => {
    expect(settingsFrom({ deep: 'none' })).toEqual({ deep: 'none' });
    expect(settingsFrom({ deep: 'inputs', deepMinBytes: 512 }).deep).toEqual({ parts: ['tool_input'], inputMinBytes: 512, textMinBytes: expect.any(Number) });
    expect(() => settingsFrom({ deep: 'thinking' })).toThrow(/--deep takes inputs, text, inputs,text or none, not "thinking"/);
  });

  it('should turn each flag given into its setting', () => {
    const given = settingsFrom({
      mode: 'shed',
      rescuePct: 40,
      rescueTokens: 90_000,
      coldRescuePct: 30,
      keepRecent: 1,
      minBytes: 256,
      window: 60_000,
      horizon: 10,
      gate: true,
      latchAt: 'prompt',
    });

    expect(given).toEqual({
      mode: 'shed',
      threshold: 0.4,
      rescueTokens: 90_000,
      coldThreshold: 0.3,
      keepRecent: 1,
      minBytes: 256,
      window: 60_000,
      horizon: 10,
      gate: true,
      latchAt: 'prompt',
    });
  });

  it('should take a number written as text, as a person types it', () => {
    expect(settingsFrom({ rescuePct: '07', keepRecent: '2' })).toEqual({ threshold: 0.07, keepRecent: 2 });
  });

  it.each([
    [{ rescuePct: 'abc' }, '--rescue-pct takes a percentage above 0 and at most 100 (e.g. 70), not "abc"'],
    [{ rescuePct: 0 }, '--rescue-pct takes a percentage above 0 and at most 100 (e.g. 70), not 0'],
    [{ rescuePct: [70, 60] }, '--rescue-pct was given 2 times (70, 60): give it once'],
    [{ rescueTokens: 'many' }, '--rescue-tokens takes a whole number of tokens >= 0, not "many"'],
    [{ keepRecent: -1 }, '--keep-recent takes a whole number >= 0, not -1'],
    [{ minBytes: '1k' }, '--min-bytes takes a whole number of bytes >= 0, not "1k"'],
    [{ window: 999 }, '--window takes a whole number of tokens >= 1000, not 999'],
    [{ horizon: 'soon' }, '--horizon takes a whole number of turns >= 0, not "soon"'],
    [{ coldRescuePct: 101 }, '--cold-rescue-pct takes a percentage above 0 and at most 100 (e.g. 70), not 101'],
    [{ mode: 'fast' }, '--mode takes rescue or shed, not "fast"'],
    [{ latchAt: 'later' }, '--latch-at takes prompt or anywhere, not "later"'],
  ])('should refuse %o in one line that says what it was given and what it takes', (args, message) => {
    expect(() => settingsFrom(args)).toThrow(message);
    try {
      settingsFrom(args);
    } catch (error) {
      expect(error).toMatchObject({ exitCode: 2 });
    }
  });
});

describe('thresholdsFrom and policyFrom', () => {
  it('should check the threshold flags alone (status) and the policy flags alone (elide)', () => {
    expect(thresholdsFrom({ rescuePct: 50, rescueTokens: 0 })).toEqual({ threshold: 0.5, rescueTokens: 0 });
    expect(policyFrom({ keepRecent: 3 })).toEqual({ keepRecent: 3 });
    expect(() => thresholdsFrom({ rescuePct: 'NaN' })).toThrow('not "NaN"');
  });
});
