/**
 * The ledger: one row per block an epoch considered, with its checksum, so a block that went
 * missing between the plan and the record is an error (`verify`), not a silence.
 */
import { blocksOf } from '../epoch-items.js';
import { isPart, type Epoch } from '../epoch-types.js';
import { LABELS_POLICY_VERSION, type BlockLabel, type Label, type LedgerRow } from './label-types.js';

/** Hex digits of the sha256 a ledger row keeps: enough to tell blocks apart, short to read. */
export const LEDGER_SHA_HEX = 12;

/** The ledger row of a labelled block whose text hashes to `sha256`. */
export function ledgerRowOf(label: BlockLabel, sha256: string): LedgerRow {
  return {
    ordinal: label.ordinal,
    id: label.toolUseId,
    tool: label.tool,
    sha: sha256.slice(0, LEDGER_SHA_HEX),
    score: label.score,
    verdict: label.label,
    rule: label.rule,
    refetch: label.refetch,
  };
}

/**
 * One row as the seed's table prints it: `Bash#14 e8428025c464 drop 0.9`. A local decision
 * prints `local` and, when a rule (not the default) decided, the rule's name.
 */
export function renderLedgerLine(row: LedgerRow): string {
  const head = `${row.tool}#${row.ordinal} ${row.sha} ${row.verdict}`;
  if (row.score !== 'local') return `${head} ${formatScore(row.score)}`;
  return row.rule === 'default' || row.rule === 'model' ? `${head} local` : `${head} local ${row.rule}`;
}

/** A score with at most two decimals and no trailing zeros (0.9, 0.62, 1). */
function formatScore(score: number): string {
  return String(Math.round(score * 100) / 100);
}

/** How many rows have each verdict. */
export function countVerdicts(rows: readonly LedgerRow[]): Record<Label, number> {
  const counts: Record<Label, number> = { keep: 0, pointer: 0, drop: 0 };
  for (const row of rows) counts[row.verdict] += 1;
  return counts;
}

/**
 * What is wrong with an epoch's labels and ledger; empty when nothing is. A version 3+ rescue epoch
 * needs a ledger row for every block it froze (same id, checksum and verdict), and no row that
 * claims a stub for a block it did not freeze; an older epoch's blocks carry no label, or they
 * would get a stub their policy never wrote.
 */
export function checkEpochLedger(epoch: Epoch): string[] {
  const at = `epoch #${epoch.n}`;
  // Labels are rescue mode's: a shed epoch freezes a span of messages, with its own policy; a
  // correction epoch (prefix_check) keeps the last epoch's policy but freezes no block to label.
  if (epoch.kind !== 'tool_results') return [];
  // Labels and the ledger are the tool results'; the deeper cut's parts carry none (the record check says so).
  const results = blocksOf(epoch).filter((b) => !isPart(b));
  if (epoch.policy.version < LABELS_POLICY_VERSION) {
    return results.filter((b) => b.label !== undefined).map((b) => `${at} ordinal ${b.ordinal}: a label in a version ${epoch.policy.version} epoch`);
  }
  if (epoch.ledger === undefined) return [`${at}: no ledger (policy version ${epoch.policy.version} keeps one)`];
  const problems: string[] = [];
  const rows = new Map<number, LedgerRow>();
  for (const row of epoch.ledger) {
    if (rows.has(row.ordinal)) problems.push(`${at}: two ledger rows for ordinal ${row.ordinal}`);
    rows.set(row.ordinal, row);
  }
  const frozen = new Set<number>();
  for (const block of results) {
    frozen.add(block.ordinal);
    const where = `${at} ordinal ${block.ordinal}`;
    const row = rows.get(block.ordinal);
    if (block.label === undefined) problems.push(`${where}: no label`);
    if (row === undefined) {
      problems.push(`${where}: no ledger row`);
      continue;
    }
    if (row.id !== block.toolUseId) problems.push(`${where}: ledger row id ${row.id}, the block's is ${block.toolUseId}`);
    if (row.sha !== block.sha256.slice(0, LEDGER_SHA_HEX)) problems.push(`${where}: ledger row sha ${row.sha} does not match the block's sha256`);
    if (row.verdict !== block.label) problems.push(`${where}: ledger says ${row.verdict}, the block is labelled ${String(block.label)}`);
  }
  for (const row of epoch.ledger) {
    if (row.verdict !== 'keep' && !frozen.has(row.ordinal)) problems.push(`${at}: ledger row ${row.ordinal} says ${row.verdict} but no block was frozen`);
    if (row.verdict === 'keep' && frozen.has(row.ordinal)) problems.push(`${at}: ledger row ${row.ordinal} says keep but the block was frozen`);
  }
  return problems;
}
