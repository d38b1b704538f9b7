import { describe, expect, it } from 'vitest';
import { parseHandle } from '../../src/restore/restore-handle.js';

describe('parseHandle', () => {
  it('should take 12 to 64 hex digits, forgiving spaces and upper case', () => {
    expect(parseHandle(' 8370B47DCCFF ')).toEqual({ kind: 'handle', prefix: '8370b47dccff' });
    expect(parseHandle('a'.repeat(64))).toEqual({ kind: 'handle', prefix: 'a'.repeat(64) });
  });

  it('should refuse anything else, saying why', () => {
    expect(parseHandle('8370b47dccf')).toEqual({ kind: 'invalid', why: 'a handle needs at least 12 hex digits, not 11' });
    expect(parseHandle('a'.repeat(65))).toEqual({ kind: 'invalid', why: 'a sha256 has 64 hex digits, not 65' });
    expect(parseHandle('../../etc/passwd').kind).toBe('invalid');
    expect(parseHandle('').kind).toBe('invalid');
  });

  it('should refuse every path and anything else that is not hex, so none reaches the disk', () => {
    for (const id of ['../x', '/etc/passwd', `${'a'.repeat(12)}/..`, 'abcdef01234g', 'abcdef 012345', `${'a'.repeat(64)}.txt`]) {
      expect(parseHandle(id)).toEqual({ kind: 'invalid', why: 'a handle is hex digits only (a sha256, or its first 12 or more digits)' });
    }
  });
});
