import { describe, expect, it } from 'vitest';
import { rewriteAcceptEncoding } from '../../src/proxy/accept-encoding.js';

describe('rewriteAcceptEncoding', () => {
  it.each<[string | string[] | undefined, string]>([
    ['gzip, deflate, br, zstd', 'gzip, deflate, br'],
    ['zstd', 'identity'],
    ['zstd;q=1.0, br;q=0.9, gzip;q=0.5', 'br;q=0.9, gzip;q=0.5'],
    ['GZIP ;Q=0.8, Br', 'GZIP ;Q=0.8, Br'],
    ['x-gzip, compress', 'x-gzip'],
    ['*', 'identity'],
    ['br, *;q=0', 'br, *;q=0'],
    ['gzip;q=0, zstd', 'identity'],
    ['identity', 'identity'],
    ['', 'identity'],
    [undefined, 'identity'],
    [['gzip', 'zstd, br'], 'gzip, br'],
    ['gzip;q=, br;q=abc', 'gzip;q=, br;q=abc'],
    [' , ,gzip,, ', 'gzip'],
  ])('should turn %j into %j', (input, expected) => {
    expect(rewriteAcceptEncoding(input)).toBe(expected);
  });
});
