/**
 * The record check of the thinking kind's items (docs/state.md, `thinking_only`): the thinking
 * blocks an epoch removes, checked field by field; each list in ordinal order, and a block removed
 * by one epoch only.
 */

type Fields = Record<string, unknown>;

/** The check of one record's removed thinking blocks, epoch by epoch in order (`at` names the epoch): it keeps the ordinals earlier epochs removed. */
export function thinkingChecker(): (blocks: readonly unknown[], at: string) => string[] {
  const seen = new Set<number>();
  return (blocks, at) => checkThinking(blocks, at, seen);
}

function checkThinking(value: readonly unknown[], at: string, seen: Set<number>): string[] {
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
    need(typeof block['sha256'] === 'string' && /^[0-9a-f]{64}$/.test(block['sha256']), 'sha256 is not 64 lowercase hex digits');
    for (const side of ['sepBefore', 'sepAfter']) {
      const sep = block[side];
      need(sep === undefined || (typeof sep === 'string' && /^[ \t\r\n]*,[ \t\r\n]*$/.test(sep)), `${side} is not a comma with JSON whitespace`);
    }
  }
  return problems;
}

function isObject(value: unknown): value is Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isCount(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) >= 0;
}
