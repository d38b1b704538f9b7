import { describe, expect, it } from 'vitest';
import { SPANS_KIND } from '../../src/rescue/kinds/spans/span-kind.js';
import { TOOL_RESULTS_KIND } from '../../src/rescue/kinds/tool-results/tool-results-kind.js';
import { DEFAULT_MODE, defaultByMode, lookUpMode, modeDefaultsOf, modeRows, modeWords, registerMode } from '../../src/rescue/mode-defaults.js';

describe('modeDefaultsOf', () => {
  it("should give each built-in word its kind's row, and the default mode the tool-result kind's", () => {
    expect(modeDefaultsOf('rescue')).toBe(TOOL_RESULTS_KIND.mode?.defaults);
    expect(modeDefaultsOf('shed')).toBe(SPANS_KIND.mode?.defaults);
    expect(DEFAULT_MODE).toBe(TOOL_RESULTS_KIND.mode?.word);
    expect(modeRows()).toEqual([TOOL_RESULTS_KIND.mode, SPANS_KIND.mode]);
  });

  it('should throw for a word no kind registered', () => {
    expect(() => modeDefaultsOf('compact')).toThrow('--mode takes rescue or shed, not "compact"');
  });
});

describe('lookUpMode', () => {
  it('should refuse an unknown word in one line that names every word', () => {
    expect(lookUpMode('rescue')).toEqual({ kind: 'mode', mode: TOOL_RESULTS_KIND.mode });
    expect(lookUpMode('Shed')).toEqual({ kind: 'unknown', message: '--mode takes rescue or shed, not "Shed"' });
  });
});

describe('registerMode', () => {
  it("should add a row's word until it is removed, a row without defaults taking the default mode's", () => {
    const remove = registerMode({ word: 'texts' });
    try {
      expect(modeWords()).toEqual(['rescue', 'shed', 'texts']);
      expect(modeDefaultsOf('texts')).toBe(modeDefaultsOf('rescue'));
      expect(lookUpMode('x')).toEqual({ kind: 'unknown', message: '--mode takes rescue, shed or texts, not "x"' });
    } finally {
      remove();
    }
    expect(modeWords()).toEqual(['rescue', 'shed']);
  });

  it('should let a row registered later with a word take it while it is registered', () => {
    const row = { word: 'shed', defaults: { ...modeDefaultsOf('shed'), threshold: 0.3 } };
    const remove = registerMode(row);
    try {
      expect(modeDefaultsOf('shed').threshold).toBe(0.3);
      expect(modeWords()).toEqual(['rescue', 'shed']);
    } finally {
      remove();
    }
    expect(modeDefaultsOf('shed').threshold).toBe(0.4);
  });

  it('should refuse a word of another shape', () => {
    expect(() => registerMode({ word: 'Two words' })).toThrow(/a mode word is lowercase letters/);
  });
});

describe('defaultByMode', () => {
  it('should say one value when every mode has the same, and each mode its own otherwise', () => {
    expect(defaultByMode((row) => String(row.minBytes))).toBe('1024');
    expect(defaultByMode((row) => String(Math.round(row.threshold * 100)))).toBe('rescue 55, shed 40');
    expect(defaultByMode((row) => (row === modeDefaultsOf('shed') ? 'b' : 'a'))).toBe('rescue a, shed b');
  });
});
