/**
 * The span kind's engine half (shed mode, docs/shed.md): its latch is its planner's take
 * (core/epochs/spans/spans-latch.ts, the burst gate inside it), its apply one stub message per
 * shed span. Its readers' half is core/epochs/spans/info.ts.
 */
import { applyEpochs, EPOCH_KIND_INFO, SPANS, spansLatch, type FrozenItems, type FrozenSpan } from '../../../core/index.js';
import { sha256Hex } from '../../../state/sha256-hex.js';
import { sharedApplyOptions, type ApplyDeps, type KindApplied, type KindApplyAsk } from '../../kind-apply.js';
import type { LatchContext } from '../../latch-conversation.js';
import { plannedKind, type LatchKind } from '../../latch-kind.js';
import { stubDirsOf } from '../../stub-dirs.js';
import { SHED_MODE } from './mode.js';

/** The span kind (shed mode, docs/shed.md): its planner's take is its whole latch; the burst gate is inside it. */
export const SPANS_KIND: LatchKind = plannedKind({
  tag: 'span',
  mode: SHED_MODE,
  carries: (api) => api.supports.spans,
  plannerOf: spansOf,
  apply: applySpans,
});

/** One stub message per shed span (core/epochs/spans/spans.ts): the span kind's apply, and any kind's that stubs spans alike. */
export function applySpans(deps: ApplyDeps, ask: KindApplyAsk, snap: FrozenItems): KindApplied {
  const { indexed } = ask;
  const index = indexed.outcome.kind === 'indexed' ? { index: indexed.outcome.index } : {};
  const options = {
    ...sharedApplyOptions(deps, ask.api, snap),
    ...index,
    spansDir: deps.stubs.spansDir,
    isAvailable: (s: FrozenSpan) => deps.files.hasItem(EPOCH_KIND_INFO.span, s),
  };
  return { outcome: applyEpochs(SPANS, ask.body, snap.span, options), how: {} };
}

/** The span kind's planner, set as the engine is. */
function spansOf(ctx: LatchContext) {
  const { horizon } = ctx.settings.latch;
  const dirs = stubDirsOf(ctx.table.store.stubDirs, ctx.settings);
  return spansLatch({
    policy: ctx.settings.shed.policy,
    spansDir: dirs.spansDir,
    elidedDir: dirs.elidedDir,
    sha256: sha256Hex,
    ...(horizon === undefined ? {} : { horizon }),
  });
}
