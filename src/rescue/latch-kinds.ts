/**
 * The two epoch kinds' planners (core/epochs/) as the engine's settings and state directory set
 * them, and which kind a conversation latches.
 */
import {
  DEFAULT_SHED_POLICY,
  spansLatch,
  toolResultsLatch,
  type EpochMode,
  type EpochPlanner,
  type PlannerKind,
  type SpanLatchChoice,
  type ToolResultsLatch,
} from '../core/index.js';
import { sha256Hex } from '../state/sha256-hex.js';
import type { ConversationEntry } from './conversation-table.js';
import type { LatchContext } from './latch-conversation.js';
import { stubDirsOf } from './stub-dirs.js';

/** The tool-result kind's planner, set as the engine is. */
export function toolResultsOf(ctx: LatchContext): ToolResultsLatch {
  return toolResultsLatch({ policy: ctx.settings.policy, elidedDir: stubDirsOf(ctx.table.store.stubDirs, ctx.settings).elidedDir, sha256: sha256Hex });
}

/** The span kind's planner, set as the engine is. */
export function spansOf(ctx: LatchContext): EpochPlanner<SpanLatchChoice> {
  const { horizon } = ctx.settings;
  return spansLatch({
    policy: ctx.settings.shedPolicy ?? DEFAULT_SHED_POLICY,
    spansDir: stubDirsOf(ctx.table.store.stubDirs, ctx.settings).spansDir,
    sha256: sha256Hex,
    ...(horizon === undefined ? {} : { horizon }),
  });
}

/** The kind a conversation of `mode` latches: shed mode sheds spans, rescue mode freezes tool results. */
export function kindOfMode(mode: EpochMode): PlannerKind {
  return mode === 'shed' ? 'span' : 'tool_results';
}

/** What the conversation's latest epoch froze (its blocks' or its span's sha256): the working set keeps their read-backs. */
export function latestFrozen(entry: ConversationEntry): string[] {
  const latest = entry.record?.epochs.at(-1);
  if (latest === undefined) return [];
  return [...latest.blocks.map((b) => b.sha256), ...(latest.span === undefined ? [] : [latest.span.sha256])];
}
