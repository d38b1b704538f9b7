/**
 * The test kind `assistant_text` as ONE record, both halves (docs/adding-a-kind.md): the readers'
 * (`info`, what the record checker, verify, inflate, restore, the store and the reports ask) and
 * the engine's (its latch and apply). A test registers it by one call, `registerKind(ASSISTANT_TEXT_KIND)`;
 * no file under src names it.
 */
import { applyEpochs } from '../../../../src/core/epochs/apply.js';
import type { EpochKindInfo } from '../../../../src/core/epochs/kind-record.js';
import { spliceApplier } from '../../../../src/core/epochs/splice-applier.js';
import { itemsOfKind } from '../../../../src/core/epochs/frozen-items.js';
import type { EpochPart } from '../../../../src/core/plan-record.js';
import { sharedApplyOptions, type ApplyDeps, type KindApplied, type KindApplyAsk } from '../../../../src/rescue/kind-apply.js';
import { holdOf, type LatchKind } from '../../../../src/rescue/latch-kind.js';
import { modeDefaultsOf } from '../../../../src/rescue/mode-defaults.js';
import type { FrozenItems } from '../../../../src/core/epochs/frozen-items.js';
import { candidatesOf, checkText, type FrozenText, inflateSites, judgeTexts, KEEP_RECENT, MIN_BYTES, placeOf, TAG, type TextCandidate } from './frozen-text.js';

/** How many times the engine asked the kind to choose, for a test to see it went through it. */
export const ASSISTANT_TEXT_USE = { choices: 0 };

/** The readers' half. */
export const ASSISTANT_TEXT_INFO: EpochKindInfo<FrozenText> = {
  tag: TAG,
  mode: undefined,
  counts: 'items',
  byCommand: false,
  originals: 'assistant_text',
  restorable: { name: 'frozen assistant text', ext: 'json' },
  order: (a, b) => a.messageIndex - b.messageIndex || a.blockIndex - b.blockIndex,
  filesOf: (t) => [{ sha256: t.sha256, ext: 'json', bytes: t.bytes }],
  checkItems: () => (items, at) => items.flatMap((item, i) => checkText(item, `${at} ${TAG} ${i}`)),
  inflate: inflateSites,
  // A stub replaces the text block itself: a thinking block it could invalidate lies after it.
  changesAt: (t, index) => (t.messageIndex < index.messages.length ? { messageIndex: t.messageIndex, blockIndex: t.blockIndex + 1 } : undefined),
};

const frozenOf = (items: FrozenItems): readonly FrozenText[] => itemsOfKind(items, TAG) as readonly FrozenText[];

/** The epoch's part: the chosen blocks as items, and their exact bytes as originals. */
function partOf(chosen: readonly TextCandidate[]): EpochPart {
  return {
    tag: TAG,
    policy: { name: 'assistant-text', version: 1, keepRecent: KEEP_RECENT, minBytes: MIN_BYTES },
    items: chosen.map(({ messageIndex, blockIndex, sha256, bytes }) => ({ messageIndex, blockIndex, sha256, bytes })),
    originals: chosen.map((c) => ({ folder: ASSISTANT_TEXT_INFO.originals, sha256: c.sha256, ext: 'json', bytes: c.original })),
  };
}

/**
 * Its applier: the core's one pass over its splices (spliceApplier), which removes the
 * conversation's frozen thinking with them and checks the output.
 */
const TEXTS = spliceApplier({ noun: 'texts', fileMissing: { skip: 'file_missing', reason: 'elided_file_missing' }, judge: judgeTexts });

/**
 * The apply: each frozen block still there, with its file known to exist, becomes its stub, and
 * each thinking block the snapshot names, with its file, goes, by the same pass (kind-apply.ts
 * `sharedApplyOptions`).
 */
function applyTexts(deps: ApplyDeps, ask: KindApplyAsk, snap: FrozenItems): KindApplied {
  const { outcome } = ask.indexed;
  const options = {
    ...sharedApplyOptions(deps, ask.api, snap),
    ...(outcome.kind === 'indexed' ? { index: outcome.index } : {}),
    isAvailable: (item: FrozenText) => deps.files.hasItem(ASSISTANT_TEXT_INFO, item),
  };
  return { outcome: applyEpochs(TEXTS, ask.body, frozenOf(snap), options), how: {} };
}

/** The whole record: the engine's half, with the readers' half as its `info`. */
export const ASSISTANT_TEXT_KIND: LatchKind = {
  tag: TAG,
  // Its mode: `--mode assistant-text`, at rescue's defaults but for the gain, as its texts are small (docs/adding-a-kind.md).
  mode: { word: 'assistant-text', defaults: { ...modeDefaultsOf('rescue'), minGainFraction: 0 } },
  info: ASSISTANT_TEXT_INFO,
  carries: (api) => api.name === 'messages',
  refaults: false,
  apply: applyTexts,
  choose: async (_ctx, ask, decide) => {
    ASSISTANT_TEXT_USE.choices += 1;
    const { body, index, items } = ask.epoch;
    const candidates = candidatesOf(body, index, frozenOf(items));
    const decision = decide(() => ({ kind: 'blocks', frozen: [], plan: candidates.map((c) => ({ ordinal: placeOf(c), bytes: c.bytes })) }));
    if (decision.kind !== 'latch') return { kind: 'hold', outcome: holdOf(decision, index) };
    const added = new Set(decision.added.map((b) => b.ordinal));
    return { kind: 'latch', part: partOf(candidates.filter((c) => added.has(placeOf(c)))), midTurn: decision.midTurn === true };
  },
  chooseOnOverflow: () => ({ latch: false, why: 'nothing_new' }),
};
