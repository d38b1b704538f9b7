/** The shape a conversation record must have, checked field by field so verify can list every fault. */
import { CONVERSATION_FORMAT, EPOCH_TRIGGERS, FIRST_PROMPT_MAX_CHARS, type EpochTrigger } from '../core/epoch-types.js';
import { LABEL_RULES, LEDGER_SHA_HEX, REFETCH_ROUTES } from '../core/index.js';
import { checkEpochItems, type RecordChecks } from './check-kind-items.js';
import { checkDeepCut } from './check-deep-cut.js';
import { isHex64 } from './layout.js';

export { CONVERSATION_FORMAT, FIRST_PROMPT_MAX_CHARS } from '../core/epoch-types.js';

type Fields = Record<string, unknown>;

/** What is wrong with a parsed record whose file name says `key`; empty when nothing is. */
export function checkConversationRecord(value: unknown, key: string): string[] {
  if (!isObject(value)) return ['not a JSON object'];
  const problems: string[] = [];
  const need = (ok: boolean, problem: string): void => void (ok || problems.push(problem));
  need(value['format'] === CONVERSATION_FORMAT, `format is not "${CONVERSATION_FORMAT}"`);
  need(value['key'] === key, `key ${show(value['key'])} does not match its file name`);
  need(value['agentId'] === null || typeof value['agentId'] === 'string', 'agentId is not a string or null');
  const prompt = value['firstPrompt'];
  need(typeof prompt === 'string', 'firstPrompt is not a string');
  const short = typeof prompt !== 'string' || prompt.length <= FIRST_PROMPT_MAX_CHARS;
  need(short, `firstPrompt is over ${FIRST_PROMPT_MAX_CHARS} chars`);
  need(typeof value['model'] === 'string', 'model is not a string');
  need(isIsoTime(value['createdAt']), 'createdAt is not an ISO-8601 time');
  problems.push(...checkPrefixCheck(value['prefixCheck']));
  problems.push(...checkBringBacks(value['bringBacks']));
  const epochs = value['epochs'];
  if (!Array.isArray(epochs)) return [...problems, 'epochs is not an array'];
  const checks: RecordChecks = new Map();
  epochs.forEach((epoch: unknown, index) => {
    problems.push(...checkEpoch(epoch, index + 1));
    if (!isObject(epoch)) return;
    const at = `epoch #${index + 1}`;
    if (epoch['gate'] !== undefined && !isObject(epoch['gate'])) problems.push(`${at}: gate is not an object`);
    // Every kind's items by one path: each list to its kind's own check of this record, in epoch order.
    problems.push(...checkEpochItems(epoch, at, checks));
  });
  return problems;
}

/** What is wrong with a record's `prefixCheck` (absent is fine). */
function checkPrefixCheck(value: unknown): string[] {
  if (value === undefined) return [];
  if (!isObject(value)) return ['prefixCheck is not an object'];
  const problems: string[] = [];
  if (typeof value['model'] !== 'string') problems.push('prefixCheck.model is not a string');
  if (!isIsoTime(value['learnedAt'])) problems.push('prefixCheck.learnedAt is not an ISO-8601 time');
  return problems;
}

/** What is wrong with a record's `bringBacks` (absent is fine): a count of at least 1 per stored text's sha256. */
function checkBringBacks(value: unknown): string[] {
  if (value === undefined) return [];
  if (!isObject(value)) return ['bringBacks is not an object'];
  return Object.entries(value).flatMap(([sha, count]) => {
    if (!isHex64(sha)) return [`bringBacks key ${show(sha)} is not a sha256`];
    return Number.isInteger(count) && (count as number) >= 1 ? [] : [`bringBacks[${sha.slice(0, 12)}] is not a positive integer`];
  });
}

// Epochs only latch forwards, so the i-th epoch in the file is epoch i; an ordinal is elided once.
function checkEpoch(epoch: unknown, n: number): string[] {
  const at = `epoch #${n}`;
  if (!isObject(epoch)) return [`${at} is not an object`];
  const problems: string[] = [];
  const need = (ok: boolean, problem: string): void => void (ok || problems.push(`${at}: ${problem}`));
  need(epoch['n'] === n, `numbered ${show(epoch['n'])}; epochs must be numbered 1..n in order`);
  need(isIsoTime(epoch['latchedAt']), 'latchedAt is not an ISO-8601 time');
  // Records from before triggers were recorded have none: they latched on the threshold.
  const trigger = epoch['trigger'];
  need(trigger === undefined || EPOCH_TRIGGERS.includes(trigger as EpochTrigger), `trigger ${show(trigger)} is not one of ${EPOCH_TRIGGERS.join(', ')}`);
  // Only a threshold latch waits for a prompt: an overflow or correction epoch is never mid_turn-timed.
  need(
    epoch['midTurn'] === undefined || (epoch['midTurn'] === true && (trigger === undefined || trigger === 'threshold')),
    `midTurn ${show(epoch['midTurn'])}: only true, and only on a threshold epoch`,
  );
  const reasonFields = ['fullness', 'threshold', 'window', 'contextTokens'];
  problems.push(...checkNumbers(epoch['reason'], reasonFields, `${at}: reason`));
  const limit = isObject(epoch['reason']) ? epoch['reason']['limit'] : undefined;
  need(limit === undefined || isCount(limit), 'reason.limit is not a non-negative integer');
  const reason = isObject(epoch['reason']) ? epoch['reason'] : {};
  need(
    reason['crossed'] === undefined || reason['crossed'] === 'fullness' || reason['crossed'] === 'tokens',
    `reason.crossed ${show(reason['crossed'])} is not fullness or tokens`,
  );
  need(reason['thresholdTokens'] === undefined || isCount(reason['thresholdTokens']), 'reason.thresholdTokens is not a non-negative integer');
  need(reason['cold'] === undefined || reason['cold'] === true, `reason.cold ${show(reason['cold'])}: only true`);
  problems.push(...checkNumbers(epoch['policy'], ['keepRecent', 'minBytes', 'version'], `${at}: policy`));
  need(!isObject(epoch['policy']) || typeof epoch['policy']['name'] === 'string', 'policy.name is not a string');
  problems.push(...checkDeepCut(epoch['policy'], at));
  const ledger = epoch['ledger'];
  if (ledger === undefined) return problems;
  if (!Array.isArray(ledger)) return [...problems, `${at}: ledger is not an array`];
  for (const [index, row] of (ledger as unknown[]).entries()) problems.push(...checkLedgerRow(row, `${at} ledger row ${index}`));
  return problems;
}

function checkLedgerRow(row: unknown, at: string): string[] {
  if (!isObject(row)) return [`${at} is not an object`];
  const problems: string[] = [];
  const need = (ok: boolean, problem: string): void => void (ok || problems.push(`${at}: ${problem}`));
  need(isCount(row['ordinal']), 'ordinal is not a non-negative integer');
  need(typeof row['id'] === 'string', 'id is not a string');
  need(typeof row['tool'] === 'string', 'tool is not a string');
  need(typeof row['sha'] === 'string' && new RegExp(`^[0-9a-f]{${LEDGER_SHA_HEX}}$`).test(row['sha']), `sha is not ${LEDGER_SHA_HEX} lowercase hex digits`);
  const score = row['score'];
  need(score === 'local' || (typeof score === 'number' && score >= 0 && score <= 1), 'score is not "local" or a number 0..1');
  need(['keep', 'pointer', 'drop'].includes(row['verdict'] as string), 'verdict is not keep, pointer or drop');
  need(LABEL_RULES.includes(row['rule'] as never), 'rule is not a known rule');
  need(REFETCH_ROUTES.includes(row['refetch'] as never), 'refetch is not a known route');
  return problems;
}

function checkNumbers(value: unknown, names: readonly string[], at: string): string[] {
  if (!isObject(value)) return [`${at} is not an object`];
  return names.filter((name) => !Number.isFinite(value[name])).map((name) => `${at}.${name} is not a number`);
}

function isObject(value: unknown): value is Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isCount(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) >= 0;
}

function isIsoTime(value: unknown): boolean {
  return typeof value === 'string' && !Number.isNaN(Date.parse(value));
}

function show(value: unknown): string {
  return JSON.stringify(value)?.slice(0, 80) ?? String(value);
}
