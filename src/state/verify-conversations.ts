/** verify, the records: every record parses and checks; the files its items name are verify-originals.ts's. */
import { upgradeRecord } from '../core/upgrade-record.js';
import fs from 'node:fs/promises';
import { itemsOfEpoch, checkEpochLedger, epochKindInfos } from '../core/index.js';
import { checkConversationRecord } from './check-conversation-record.js';
import type { ConversationRecord } from './conversation-record.js';
import { parseConversationName, type StateDir } from './layout.js';
import type { Findings, VerifyCounts } from './verify-findings.js';
import type { CheckedRecord } from './verify-originals.js';
import { walkStore } from './verify-store.js';

/** Checks `conversations/`, counting what it holds; returns the records that pass, for the file checks. */
export async function verifyConversations(state: StateDir, findings: Findings, checked: VerifyCounts): Promise<CheckedRecord[]> {
  const records: CheckedRecord[] = [];
  const folder = { dir: state.conversationsDir, label: 'conversations', parse: parseConversationName, names: '<64 hex key>.json' };
  await walkStore(folder, findings, async ({ file, where, parsed: key }) => {
    let value: unknown;
    try {
      value = upgradeRecord(JSON.parse(await fs.readFile(file, 'utf8')));
    } catch {
      findings.problems.push(`${where}: not valid JSON`);
      return;
    }
    const problems = checkConversationRecord(value, key);
    findings.problems.push(...problems.map((problem) => `${where}: ${problem}`));
    if (problems.length > 0) return;
    const record = value as ConversationRecord;
    // A version 3 epoch audits itself: a frozen block without its ledger row is a lost chunk.
    for (const epoch of record.epochs) findings.problems.push(...checkEpochLedger(epoch).map((problem) => `${where}: ${problem}`));
    count(record, checked);
    records.push({ record, where });
  });
  return records;
}

// The conversations, their epochs and the blocks they froze (the kinds counted in blocks).
function count(record: ConversationRecord, checked: VerifyCounts): void {
  checked.conversations += 1;
  checked.epochs += record.epochs.length;
  for (const kind of epochKindInfos()) {
    if (kind.counts !== 'blocks') continue;
    for (const epoch of record.epochs) checked.blocks += itemsOfEpoch(epoch, kind).length;
  }
}
