/** What the report commands (ls, show, status, stats) read, and the flags they share. */
import fs from 'node:fs/promises';
import { layoutPaths, type StateDir } from '../state/layout.js';
import { summarizeConversations, type ConversationSummary } from '../report/conversation-summary.js';
import { readRecordsForReport } from '../report/read-report-state.js';
import type { WireTally } from '../report/wire-tally.js';
import type { ConversationRecord } from '../state/conversation-record.js';
import { hasErrnoCode } from '../state/state-error.js';
import { readPreviews } from '../state/preview-file.js';
import { CliError } from './cli-error.js';
import { textWidth } from './replay-input.js';
import { exportedStoreFor, ownerDirFrom } from './state-option.js';

export const JSON_OPTION = { type: 'boolean', default: false, describe: 'Print JSON for scripts (docs/commands.md has the shape)' } as const;

/**
 * The state directory the flags name, which must exist. A report never creates it: a typo in
 * --state should say so, not show an empty directory it just made.
 */
export async function stateForReport(flag: string | undefined, storeFlag?: string, owner = ''): Promise<StateDir> {
  // --store: the store's records and originals, written out as a state directory (store/export-store.ts).
  const exported = await exportedStoreFor(storeFlag, flag, owner);
  if (exported !== undefined) return exported;
  // --owner on a state directory: that owner's own state directory below it (docs/team.md "Owners").
  const dir = ownerDirFrom(flag, owner);
  let stat: Awaited<ReturnType<typeof fs.stat>>;
  try {
    stat = await fs.stat(dir);
  } catch (error) {
    if (hasErrnoCode(error, 'ENOENT')) throw new CliError(`no state directory at ${dir} (nothing has run with it yet, or --state names another)`);
    throw new CliError(`cannot read the state directory ${dir}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  if (!stat.isDirectory()) throw new CliError(`${dir} is not a directory`);
  return layoutPaths(dir);
}

/** The records and the conversations summarized from them and a folded wire log. */
export interface ReportInput {
  readonly records: readonly ConversationRecord[];
  readonly summaries: readonly ConversationSummary[];
  readonly warnings: readonly string[];
}

/** Reads the records and summarizes every conversation `tally` and the records know. */
export async function readReportInput(state: StateDir, tally: WireTally): Promise<ReportInput> {
  const { records, warnings } = await readRecordsForReport(state);
  const previews = await readPreviews(state);
  const prompts = new Map([...previews].map(([key, preview]) => [key, preview.firstPrompt]));
  return { records, summaries: summarizeConversations(tally, records, prompts), warnings };
}

/** Warnings go to stderr, one line each, so stdout stays the report. */
export function warn(warnings: readonly string[]): void {
  for (const line of warnings) process.stderr.write(`ctxshed: note: ${line}\n`);
}

/**
 * The width the text reports are laid out to, as `replay`'s are: the terminal's when stdout is
 * one, else `COLUMNS`, else 120; never under 60 (docs/commands.md).
 */
export function reportWidth(): number {
  return textWidth(process.stdout);
}
