import { describe, expect, it } from 'vitest';
import { resolveId, shortId, type IdCandidate } from '../../src/report/resolve-id.js';

const SHA_1 = `abcdef01${'0'.repeat(56)}`;
const SHA_2 = `abcdef02${'0'.repeat(56)}`;
const KEY = `123456${'f'.repeat(58)}`;
const CANDIDATES: IdCandidate[] = [
  { id: SHA_1, kind: 'original', of: { tag: 'tool_results', ext: 'txt' } },
  { id: SHA_2, kind: 'original', of: { tag: 'tool_results', ext: 'txt' } },
  { id: KEY, kind: 'conversation' },
];

describe('resolveId', () => {
  it('should find the one candidate a full id or an unambiguous prefix names, in any case', () => {
    expect(resolveId(SHA_1, CANDIDATES)).toEqual({ kind: 'found', match: CANDIDATES[0] });
    expect(resolveId('ABCDEF02', CANDIDATES)).toEqual({ kind: 'found', match: CANDIDATES[1] });
    expect(resolveId('123456', CANDIDATES)).toEqual({ kind: 'found', match: CANDIDATES[2] });
  });

  it('should list every candidate an ambiguous prefix could mean', () => {
    expect(resolveId('abcdef', CANDIDATES)).toEqual({ kind: 'ambiguous', matches: [CANDIDATES[0], CANDIDATES[1]] });
  });

  it('should say none when nothing starts so', () => {
    expect(resolveId('999999', CANDIDATES)).toEqual({ kind: 'none' });
  });

  it('should count one thing named twice (a key in a record and in the wire log) once', () => {
    expect(resolveId('123456', [...CANDIDATES, { id: KEY, kind: 'conversation' }]).kind).toBe('found');
  });
});

describe('shortId', () => {
  it('should keep the first 12 hex digits', () => {
    expect(shortId(SHA_1)).toBe('abcdef010000');
  });
});
