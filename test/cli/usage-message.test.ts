import { describe, expect, it } from 'vitest';
import { nearestFlag, usageMessage } from '../../src/cli/usage-message.js';

const KNOWN = ['mode', 'rescue-pct', 'rescue-tokens', 'window', 'grant', 'no-grant', 'json'];

describe('usageMessage', () => {
  it('should name an unknown flag once, as typed, and the known flag it is a typo of', () => {
    expect(usageMessage(['serve', '--rescue-pcnt', '3'], 'Unknown arguments: rescue-pcnt, rescuePcnt', KNOWN)).toBe(
      'unknown flag --rescue-pcnt; did you mean --rescue-pct?',
    );
    expect(usageMessage(['serve', '--rescue-pcnt=3'], 'Unknown arguments: rescue-pcnt, rescuePcnt', KNOWN)).toBe(
      'unknown flag --rescue-pcnt; did you mean --rescue-pct?',
    );
  });

  it('should suggest nothing for a flag near no known one, and name several in one line', () => {
    expect(usageMessage(['ls', '--zzzzzz'], 'Unknown argument: zzzzzz', KNOWN)).toBe('unknown flag --zzzzzz');
    expect(usageMessage(['serve', '--wndow', '5', '--zzzzzz'], 'Unknown arguments: wndow, zzzzzz', KNOWN)).toBe(
      'unknown flags --wndow (did you mean --window?), --zzzzzz',
    );
  });

  it('should take a negated boolean as typed, and leave words after -- and stray words to yargs', () => {
    expect(usageMessage(['rescue', '--no-grnt', '--', 'x'], 'Unknown argument: grnt', KNOWN)).toBe('unknown flag --no-grnt; did you mean --no-grant?');
    expect(usageMessage(['rescue', 'true'], 'Unknown argument: true', KNOWN)).toBeUndefined();
  });

  it('should say a flag needs a value, and leave any other message alone', () => {
    expect(usageMessage(['serve', '--window'], 'Not enough arguments following: window', KNOWN)).toBe('--window needs a value');
    expect(usageMessage(['ls'], 'Not enough non-option arguments: got 0, need at least 1', KNOWN)).toBeUndefined();
  });
});

describe('nearestFlag', () => {
  it('should take a swap of two letters as one edit, and not stretch to a distant name', () => {
    expect(nearestFlag('rescue-ptc', KNOWN)).toBe('rescue-pct');
    expect(nearestFlag('mdoe', KNOWN)).toBe('mode');
    expect(nearestFlag('verbose', KNOWN)).toBeUndefined();
  });
});
