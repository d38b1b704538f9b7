/** verify, part 2: every record parses, checks, and names elided files that exist. */
import fs from 'node:fs/promises';
import { checkEpochLedger } from '../core/index.js';
import { checkConversationRecord } from './check-conversation-record.js';
import type { ConversationRecord } from './conversation-record.js';
import { parseConversationName, type StateDir } from './layout.js';
import type { Findings, VerifyCounts } from './verify-findings.js';
import type { SpanFiles } from './verify-spans.js';
import { walkStore } from './verify-store.js';

const NO_SPANS: SpanFiles = { exact: new Map(), readable: new Set() };

/**
 * Checks `conversations/` against `elided` (name to size) and `spans`; returns the elided names
 * records use, and `span:<sha256>` for each span they name.
 */
export async function verifyConversations(
  state: StateDir,
  elided: ReadonlyMap<string, number>,
  findings: Findings,
  checked: VerifyCounts,
  spans: SpanFiles = NO_SPANS,
): Promise<Set<string>> {
  const used = new Set<string>();
  const folder = { dir: state.conversationsDir, label: 'conversations', parse: parseConversationName, names: '<64 hex key>.json' };
  await walkStore(folder, findings, async ({ file, where, parsed: key }) => {
    let value: unknown;
    try {
      value = JSON.parse(await fs.readFile(file, 'utf8'));
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
    checkBlockFiles(record, where, elided, findings, checked, used);
    checkSpanFiles(record, where, spans, findings, used);
  });
  return used;
}

// Invariant 5: every stub names a file that exists; a record is what stubs are made from.
function checkBlockFiles(
  record: ConversationRecord,
  where: string,
  elided: ReadonlyMap<string, number>,
  findings: Findings,
  checked: VerifyCounts,
  used: Set<string>,
): void {
  checked.conversations += 1;
  for (const epoch of record.epochs) {
    checked.epochs += 1;
    for (const block of epoch.blocks) {
      checked.blocks += 1;
      const at = `${where}: epoch #${epoch.n} ${block.part === undefined ? 'ordinal' : block.part} ${block.ordinal}`;
      const text = `${block.sha256}.txt`;
      const size = elided.get(text);
      used.add(text);
      if (size === undefined) findings.problems.push(`${at}: elided/${text} is missing`);
      else if (size !== block.bytes) {
        findings.problems.push(`${at}: elided/${text} has ${size} bytes, the block says ${block.bytes}`);
      }
      if (block.rawSha256 === undefined) continue;
      const raw = `${block.rawSha256}.json`;
      used.add(raw);
      if (!elided.has(raw)) findings.problems.push(`${at}: elided/${raw} is missing`);
    }
  }
}

// Invariant 5 in shed mode: every span stub names files that exist; a record is what stubs are made from.
function checkSpanFiles(record: ConversationRecord, where: string, spans: SpanFiles, findings: Findings, used: Set<string>): void {
  for (const epoch of record.epochs) {
    const span = epoch.span;
    if (span === undefined) continue;
    const at = `${where}: epoch #${epoch.n} span ${span.first}..${span.last}`;
    used.add(`span:${span.sha256}`);
    const size = spans.exact.get(span.sha256);
    if (size === undefined) findings.problems.push(`${at}: spans/${span.sha256}.json is missing`);
    else if (size !== span.bytes) findings.problems.push(`${at}: spans/${span.sha256}.json has ${size} bytes, the span says ${span.bytes}`);
    if (!spans.readable.has(span.sha256)) findings.problems.push(`${at}: spans/${span.sha256}.md is missing`);
  }
}
