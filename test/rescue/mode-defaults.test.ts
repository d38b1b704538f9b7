import { describe, expect, it } from 'vitest';
import { EPOCH_MODES } from '../../src/core/epoch-types.js';
import { defaultByMode, MODE_DEFAULTS, modeDefaultsOf } from '../../src/rescue/mode-defaults.js';

describe('MODE_DEFAULTS', () => {
  it('should have a row for every mode word', () => {
    for (const mode of EPOCH_MODES) expect(modeDefaultsOf(mode)).toBe(MODE_DEFAULTS[mode]);
  });
});

describe('defaultByMode', () => {
  it('should say one value when every mode has the same, and each mode its own otherwise', () => {
    expect(defaultByMode((row) => String(row.minBytes))).toBe('1024');
    expect(defaultByMode((row) => String(Math.round(row.threshold * 100)))).toBe('rescue 55, shed 40');
    expect(defaultByMode((row) => (row === MODE_DEFAULTS.shed ? 'b' : 'a'))).toBe(MODE_DEFAULTS.shed === MODE_DEFAULTS.rescue ? 'b' : 'rescue a, shed b');
  });
});
