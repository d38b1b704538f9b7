/**
 * The tool-result kind's record for the registry (latch-kinds.ts; rescue mode, docs/rescue.md):
 * the one decision on the blocks' sizes, then the kind's own steps after it
 * (tool-results-steps.ts), and its apply, from the conversation's last rewrite when it serves.
 */
import { EPOCH_KIND_INFO, rewriteIncrementally, toolResultsLatch, type FrozenBlock, type FrozenItems, type ToolResultsLatch } from '../../../core/index.js';
import { sha256Hex } from '../../../state/sha256-hex.js';
import { sharedApplyOptions, type ApplyDeps, type KindApplied, type KindApplyAsk } from '../../kind-apply.js';
import type { LatchContext } from '../../latch-conversation.js';
import { holdOf, plannedKind, type LatchKind } from '../../latch-kind.js';
import { stubDirsOf } from '../../stub-dirs.js';
import { RESCUE_MODE } from './mode.js';
import { afterDecision, takeOnSizes } from './tool-results-steps.js';

/** The tool-result kind's record for the registry (latch-kinds.ts). */
export const TOOL_RESULTS_KIND: LatchKind = {
  tag: 'tool_results',
  mode: RESCUE_MODE,
  carries: () => true,
  choose: async (ctx, ask, decide) => {
    const planner = toolResultsOf(ctx);
    // One decision, on the blocks' sizes; the steps after it (hashes, labels, the gate) decide nothing again.
    const decision = decide(() => takeOnSizes(ctx, planner, ask.epoch, ask.eligibility));
    if (decision.kind !== 'latch') return { kind: 'hold', outcome: holdOf(decision) };
    const steps = await afterDecision(ctx, planner, ask.epoch, ask, { decision, thresholds: ask.thresholds });
    const by = steps.classifier === undefined ? {} : { classifier: steps.classifier };
    if (steps.kind === 'hold') return { kind: 'hold', outcome: { ...holdOf(steps.decision), ...by } };
    return { kind: 'latch', part: planner.epochOf(steps.choice, steps.gate), midTurn: decision.midTurn === true, ...by };
  },
  chooseOnOverflow: (ctx, ask) =>
    plannedKind({ tag: 'tool_results', carries: () => true, plannerOf: toolResultsOf, apply: applyToolResults }).chooseOnOverflow(ctx, ask),
  apply: applyToolResults,
  refaults: true,
};

/** Tool results go from the conversation's last rewrite when it serves, with exactly the outcome of a rewrite from scratch. */
function applyToolResults(deps: ApplyDeps, ask: KindApplyAsk, snap: FrozenItems): KindApplied {
  const options = {
    ...sharedApplyOptions(deps, ask.api, snap),
    elidedDir: deps.stubs.elidedDir,
    isAvailable: (b: FrozenBlock) => deps.files.hasItem(EPOCH_KIND_INFO.tool_results, b),
  };
  const rewrite = rewriteIncrementally(ask.body, snap.tool_results, options, ask.indexed);
  if (rewrite.memo !== undefined) deps.memos.set(ask.key, rewrite.memo, ask.nowMs);
  return { outcome: rewrite.outcome, how: { rewritePath: rewrite.path } };
}

/** The tool-result kind's planner, set as the engine is. */
export function toolResultsOf(ctx: LatchContext): ToolResultsLatch {
  return toolResultsLatch({
    policy: ctx.settings.rescue.policy,
    elidedDir: stubDirsOf(ctx.table.store.stubDirs, ctx.settings).elidedDir,
    sha256: sha256Hex,
    restoreTool: ctx.settings.stubs.restoreTool,
  });
}
