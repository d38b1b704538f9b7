/**
 * A small kind for the registry's test (docs/adding-a-kind.md): spans of whole messages, planned
 * with no recent window at all (whatever `--mode shed`'s policy says), applied as the span kind's
 * stubs. Its whole record is this file; it is registered by `registerKind`, not by a line in
 * src/rescue/latch-kinds.ts.
 */
import { fixedRecentBudget } from '../../../../src/core/shed/shed-types.js';
import { spansLatch } from '../../../../src/core/epochs/spans/spans-latch.js';
import type { LatchContext } from '../../../../src/rescue/latch-conversation.js';
import { plannedKind, type LatchKind } from '../../../../src/rescue/latch-kind.js';
import { applySpans } from '../../../../src/rescue/kinds/spans/span-kind.js';
import { stubDirsOf } from '../../../../src/rescue/stub-dirs.js';
import { sha256Hex } from '../../../../src/state/sha256-hex.js';

/** How many times the kind chose, for a test to see the engine went through it. */
export const NARROW_SPANS_USE = { choices: 0 };

function plannerOf(ctx: LatchContext) {
  const { spansDir } = stubDirsOf(ctx.table.store.stubDirs, ctx.settings);
  return spansLatch({ policy: fixedRecentBudget(0), spansDir, sha256: sha256Hex, horizon: 1e9 });
}

const planned = plannedKind({ tag: 'span', carries: (api) => api.supports.spans, plannerOf, apply: applySpans });

/** The kind's record. */
export const NARROW_SPANS_KIND: LatchKind = {
  ...planned,
  choose: (ctx, ask, decide) => {
    NARROW_SPANS_USE.choices += 1;
    return planned.choose(ctx, ask, decide);
  },
};
