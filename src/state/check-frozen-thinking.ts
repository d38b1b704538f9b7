/** The shape of an epoch's `thinking` list and of a record's `prefixCheck`, checked field by field. */
import { isHex64 } from './layout.js';

type Fields = Record<string, unknown>;

/**
 * What is wrong with an epoch's `thinking` (absent is fine). `seen` holds the ordinals earlier
 * epochs removed: a block is removed by one epoch only, and each list is in ordinal order.
 */
export function checkFrozenThinking(value: unknown, at: string, seen: Set<number>): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) return [`${at}: thinking is not an array`];
  const problems: string[] = [];
  let last = -1;
  for (const [i, block] of (value as unknown[]).entries()) {
    const where = `${at} thinking ${i}`;
    if (!isObject(block)) {
      problems.push(`${where} is not an object`);
      continue;
    }
    const need = (ok: boolean, problem: string): void => void (ok || problems.push(`${where}: ${problem}`));
    const ordinal = block['ordinal'];
    need(isCount(ordinal), 'ordinal is not a non-negative integer');
    if (isCount(ordinal)) {
      need(!seen.has(ordinal), `ordinal ${ordinal} is already removed by an earlier epoch`);
      need(ordinal > last, 'blocks are not in ordinal order');
      seen.add(ordinal);
      last = ordinal;
    }
    need(isCount(block['messageIndex']), 'messageIndex is not a non-negative integer');
    need(isCount(block['blockIndex']), 'blockIndex is not a non-negative integer');
    need(block['type'] === 'thinking' || block['type'] === 'redacted_thinking', 'type is not "thinking" or "redacted_thinking"');
    need(isCount(block['jsonBytes']) && block['jsonBytes'] > 0, 'jsonBytes is not a positive integer');
    need(typeof block['sha256'] === 'string' && isHex64(block['sha256']), 'sha256 is not 64 lowercase hex digits');
    for (const side of ['sepBefore', 'sepAfter']) {
      const sep = block[side];
      need(sep === undefined || (typeof sep === 'string' && /^[ \t\r\n]*,[ \t\r\n]*$/.test(sep)), `${side} is not a comma with JSON whitespace`);
    }
  }
  return problems;
}

/** What is wrong with a record's `prefixCheck` (absent is fine). */
export function checkPrefixCheck(value: unknown): string[] {
  if (value === undefined) return [];
  if (!isObject(value)) return ['prefixCheck is not an object'];
  const problems: string[] = [];
  if (typeof value['model'] !== 'string') problems.push('prefixCheck.model is not a string');
  if (typeof value['learnedAt'] !== 'string' || Number.isNaN(Date.parse(value['learnedAt']))) problems.push('prefixCheck.learnedAt is not an ISO-8601 time');
  return problems;
}

function isObject(value: unknown): value is Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isCount(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) >= 0;
}
