import { describe, expect, it } from 'vitest';
import { checkSealRecord, parseSealRecord, SEAL_FORMAT, serializeSealRecord, type SealRecord } from '../../src/state/seal-record.js';

const SHA = 'b'.repeat(64);
const RECORD: SealRecord = { format: SEAL_FORMAT, sha256: SHA, bytes: 12, reason: 'a key', sealedAt: '2026-01-01T00:00:00.000Z', raw: ['c'.repeat(64)] };

describe('parseSealRecord', () => {
  it('should read back what serializeSealRecord wrote', () => {
    const text = Buffer.from(serializeSealRecord(RECORD)).toString('utf8');
    expect(text.endsWith('}\n')).toBe(true);
    expect(parseSealRecord(text, SHA, 'x')).toEqual(RECORD);
  });

  it('should refuse text that is not JSON, naming where', () => {
    expect(() => parseSealRecord('{', SHA, 'sealed/x')).toThrow(
      expect.objectContaining({ code: 'STATE_BAD_RECORD', message: expect.stringContaining('sealed/x') }),
    );
  });
});

describe('checkSealRecord', () => {
  it('should list every fault', () => {
    expect(checkSealRecord({ ...RECORD, sha256: 'd'.repeat(64), bytes: -1, reason: 3, sealedAt: 'soon', raw: ['x'] }, SHA)).toEqual([
      'sha256 does not match its file name',
      'bytes is not a non-negative integer',
      'reason is not a string or null',
      'sealedAt is not an ISO-8601 time',
      'raw is not a list of sha256s',
    ]);
    expect(checkSealRecord([], SHA)).toEqual(['not a JSON object']);
  });
});
