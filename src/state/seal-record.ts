/** The record of a sealed block, `sealed/<sha256>.seal.json`: what was moved out of elided/, when and why. */
import { isHex64 } from './layout.js';
import { StateError } from './state-error.js';

/** The format tag of a seal record; the number changes when the shape does. */
export const SEAL_FORMAT = 'ctxshed.seal/1';

/** The content of `sealed/<sha256>.seal.json`. */
export interface SealRecord {
  readonly format: typeof SEAL_FORMAT;
  /** The sealed text's sha256: also the record's and the text file's name. */
  readonly sha256: string;
  /** Bytes of the text. */
  readonly bytes: number;
  /** What the person gave with `--reason`, or null. */
  readonly reason: string | null;
  /** ISO-8601 time of the seal. */
  readonly sealedAt: string;
  /** The sha256 of each `<sha256>.json` (a block's exact original JSON) moved with the text. */
  readonly raw: readonly string[];
}

/** The bytes of a record file: pretty-printed, with a final newline. */
export function serializeSealRecord(record: SealRecord): Uint8Array {
  return Buffer.from(`${JSON.stringify(record, null, 2)}\n`, 'utf8');
}

/** What is wrong with a parsed seal record whose file name says `sha256`; empty when nothing is. */
export function checkSealRecord(value: unknown, sha256: string): string[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return ['not a JSON object'];
  const v = value as Record<string, unknown>;
  const problems: string[] = [];
  const need = (ok: boolean, problem: string): void => void (ok || problems.push(problem));
  need(v['format'] === SEAL_FORMAT, `format is not "${SEAL_FORMAT}"`);
  need(v['sha256'] === sha256, 'sha256 does not match its file name');
  need(Number.isSafeInteger(v['bytes']) && (v['bytes'] as number) >= 0, 'bytes is not a non-negative integer');
  need(v['reason'] === null || typeof v['reason'] === 'string', 'reason is not a string or null');
  need(typeof v['sealedAt'] === 'string' && !Number.isNaN(Date.parse(v['sealedAt'])), 'sealedAt is not an ISO-8601 time');
  const raw = v['raw'];
  need(Array.isArray(raw) && raw.every((r) => typeof r === 'string' && isHex64(r)), 'raw is not a list of sha256s');
  return problems;
}

/** Parses and checks a seal record's text; throws STATE_BAD_RECORD naming `where` and what is wrong. */
export function parseSealRecord(text: string, sha256: string, where: string): SealRecord {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new StateError('STATE_BAD_RECORD', `${where} is not valid JSON`, { cause: error });
  }
  const problems = checkSealRecord(value, sha256);
  if (problems.length > 0) throw new StateError('STATE_BAD_RECORD', `${where}: ${problems.join('; ')}`);
  return value as SealRecord;
}
