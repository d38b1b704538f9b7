/** A planned block of `bytes` text bytes, for the decision tests: its hashes are stand-ins, its text empty. */
import type { PlannedBlock } from '../../src/core/plan-elision.js';

export function planned(ordinal: number, bytes: number): PlannedBlock {
  return {
    ordinal,
    toolUseId: `toolu_${ordinal}`,
    bytes,
    sha256: String(ordinal).padStart(64, '0'),
    jsonBytes: bytes + 2,
    jsonSha256: String(ordinal).padStart(64, '1'),
    text: new Uint8Array(0),
  };
}
