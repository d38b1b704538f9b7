import { describe, expect, it } from 'vitest';
import { DROP_STUB_PREFIX, elidedRawPath, elidedTextPath, escapeRegExp, rawSuffix, RAW_SUFFIX_PATTERN, STUB_PREFIX } from '../../src/core/stub-paths.js';

const DIR = '/s/elided';
const RAW = '0123456789abcdef'.repeat(4);

describe('the stub prefixes', () => {
  it("should begin every stub with ctxshed's name, the pointer one as version 2 always did", () => {
    expect(STUB_PREFIX).toBe('[ctxshed: tool result moved out of the context to save space; ');
    expect(DROP_STUB_PREFIX).toBe('[ctxshed: dropped ');
  });
});

describe('elidedTextPath and elidedRawPath', () => {
  it('should name the files by their sha256 in the folder', () => {
    expect(elidedTextPath(DIR, RAW)).toBe(`${DIR}/${RAW}.txt`);
    expect(elidedRawPath(DIR, RAW)).toBe(`${DIR}/${RAW}.json`);
  });
});

describe('rawSuffix', () => {
  it('should be empty without a raw file, and match RAW_SUFFIX_PATTERN with one', () => {
    // Arrange, Act
    const none = rawSuffix(DIR, undefined);
    const some = rawSuffix(DIR, RAW);

    // Assert
    expect(none).toBe('');
    expect(some).toBe(`; exact original JSON in ${DIR}/${RAW}.json`);
    expect(new RegExp(`^${RAW_SUFFIX_PATTERN}$`).exec(some)?.groups?.['raw']).toBe(RAW);
  });
});

describe('escapeRegExp', () => {
  it('should make every special character literal', () => {
    const text = '[a](b){c}*+?.^$|\\';
    expect(new RegExp(`^${escapeRegExp(text)}$`).test(text)).toBe(true);
  });
});
