/**
 * The tool-result kind's latch side (rescue mode, docs/rescue.md): an epoch freezes the eligible
 * tool_result contents not frozen yet (core/plan-elision.ts), each replaced by a stub that names
 * its elided file. Labels (docs/labels.md), the classifier and `--gate` are steps of this kind
 * only; the engine takes them (rescue/kinds/tool-results/tool-results-steps.ts) and hands their outcome back here.
 */
import { blockKeys, blockKeyOf, isResultIn } from '../../block-key.js';
import type { EpochTake } from '../../epoch-take.js';
import { isPart, type ElisionPolicy, type FrozenBlock } from '../../epoch-types.js';
import { encodeJsonString } from '../../json-string.js';
import { freezeLabelled } from '../../labels/freeze-labelled.js';
import { LABELS_POLICY_VERSION, type BlockLabel } from '../../labels/label-types.js';
import { DEFAULT_TOKENS_PER_BYTE, fullnessOf } from '../../fullness-reading.js';
import type { DecidedBlock } from '../../weigh-added.js';
import type { OverflowTake } from '../../overflow-decision.js';
import { freezeBlock, planElision, POLICY_NAME, POLICY_VERSION, type PlannedBlock } from '../../plan-elision.js';
import type { EpochPart, PlannedFile } from '../../plan-record.js';
import type { Sha256 } from '../../ports.js';
import { GATE_CEILING, type GateDecision, type GateInput } from '../../break-even.js';
import { renderStub } from '../../stub.js';
import type { EpochAsk, EpochPlanner, OverflowAsk } from '../epoch-planner.js';
import { bytesWithBlocks, pressedReading } from '../request-tokens.js';
import { repeatGroupsOfAsk, repeatSavings, wholeGroups } from '../repeat-groups.js';
import { broughtBackOrdinals, workingSetOfAsk, workingSetOrdinals } from '../working-set.js';
import { planParts, type PartsPlanInput } from './plan-parts.js';
import { TOOL_RESULTS_INFO } from './info.js';

/** What a tool-result epoch freezes: the blocks it adds and, from policy version 3, their labels. */
export interface ToolResultsChoice {
  readonly added: readonly PlannedBlock[];
  /** One label per added block; absent: a version 2 epoch (an overflow latch, or no labels asked). */
  readonly labels?: readonly BlockLabel[];
}

/** What the kind is set with: the policy, where the stubs point, the hash. */
export interface ToolResultsSettings {
  readonly policy: ElisionPolicy;
  readonly elidedDir: string;
  readonly sha256: Sha256;
  /** ctxshed's `restore` tool is offered: a part's stub names it as the way back (a tool result's label does). */
  readonly restoreTool?: boolean;
}

/** The tool-result kind, with `takeBlocks` for a take on blocks the caller found (sizes only, or a memo's). */
export interface ToolResultsLatch extends EpochPlanner<ToolResultsChoice> {
  takeBlocks<B extends DecidedBlock>(ask: EpochAsk, blocks: () => readonly B[], gate?: (added: readonly B[]) => GateInput): EpochTake<B>;
}

/** The tool-result kind's planner. */
export function toolResultsLatch(settings: ToolResultsSettings): ToolResultsLatch {
  const { policy, elidedDir, sha256 } = settings;
  const takeBlocks = <B extends DecidedBlock>(ask: EpochAsk, blocks: () => readonly B[], gate?: (added: readonly B[]) => GateInput): EpochTake<B> => {
    // The working set's answers stay (core/epochs/working-set.ts): the epoch plans around them.
    // When this request (the last reading grown by what was added since: request-tokens.ts) is
    // at the gate's ceiling, the window forces out all but what was brought back since the
    // person's latest prompt, which no epoch takes (issue 39).
    const groups = repeatGroupsOfAsk(ask);
    const stubbed = new Set(ask.items.tool_results.map((b) => b.ordinal));
    const repeats = repeatSavings(groups, (g) => g.ordinals.some((o) => stubbed.has(o)), elidedDir);
    const reading = pressedReading(ask.reading, bytesWithBlocks(ask.body, ask.items.tool_results, elidedDir) - repeats);
    const nearWindow = fullnessOf(reading) >= GATE_CEILING;
    const set = workingSetOfAsk(ask);
    const keep = workingSetOrdinals(ask.index, nearWindow ? set.sincePrompt : set);
    const all = blocks();
    // A repeat's pointer and the copies it points to go together, or not at all (repeat-groups.ts).
    // The working set is answers: tool results. A part is never one.
    const plan = wholeGroups(keep.size === 0 ? all : all.filter((b) => !isResultIn(b, keep)), groups);
    const kept = all.length - plan.length;
    // What was brought back pays for no epoch (issue 39), unless the window forces it out.
    const back = broughtBackOrdinals(ask.index, set);
    const broughtBack = !nearWindow && plan.some((b) => isResultIn(b, back));
    return {
      kind: 'blocks',
      frozen: ask.items.tool_results,
      plan,
      reading,
      ...(gate === undefined ? {} : { gate }),
      ...(kept > 0 ? { keptByWorkingSet: kept, nearWindow } : {}),
      ...(broughtBack ? { broughtBack: back } : {}),
    };
  };
  // Tool results first, then the deeper cut's parts (plan-parts.ts), when the policy takes any.
  const planOf = (ask: EpochAsk | OverflowAsk): PlannedBlock[] => [
    ...planElision(ask.body, ask.index, policy, sha256, { elidedDir }),
    ...planParts({ ...partsInput(ask, settings) }, sha256),
  ];
  return {
    kind: 'tool_results',
    takeBlocks,
    take: (ask) => takeBlocks(ask, () => planOf(ask)),
    chosen: (decision) => ({ added: decision.added }),
    takeOnOverflow: (ask) => overflowAroundWorkingSet(ask, planOf(ask), elidedDir),
    epochOf: (choice, gate) => toolResultsPart(choice, policy, gate),
  };
}

/** What the parts' plan reads of an ask and the kind's settings. */
export function partsInput(ask: EpochAsk | OverflowAsk, settings: ToolResultsSettings): PartsPlanInput {
  return {
    body: ask.body,
    index: ask.index,
    policy: settings.policy,
    readSites: ask.readParts,
    readCalls: ask.readCalls,
    elidedDir: settings.elidedDir,
    restoreTool: settings.restoreTool,
  };
}

/** What the overflow take reads: the refusal's count, the bytes sent, the blocks frozen, and the plan with where its stubs point. */
export type ToolResultsOverflow = Pick<OverflowAsk, 'tokens' | 'sentBytes'> & {
  /** The conversation's frozen blocks (the ask's `items.tool_results`). */
  readonly frozen: readonly FrozenBlock[];
  readonly plan: readonly PlannedBlock[];
  /** Where the stubs point: their length counts against what they free. */
  readonly elidedDir: string;
};

/** The blocks not yet frozen and the tokens their stubs free, estimated with the refused request's tokens per byte. */
export function toolResultsOverflowTake(input: ToolResultsOverflow): OverflowTake<ToolResultsChoice> {
  const frozen = blockKeys(input.frozen);
  const added = input.plan.filter((b) => !frozen.has(blockKeyOf(b)));
  if (added.length === 0) return { kind: 'none' };
  const tokensPerByte = input.sentBytes > 0 ? input.tokens / input.sentBytes : DEFAULT_TOKENS_PER_BYTE;
  // Only the content value changes: the block's JSON goes, its stub's JSON comes.
  const bytesFreed = added.reduce((sum, b) => sum + Math.max(0, b.jsonBytes - stubJsonBytes(b, input.elidedDir)), 0);
  return { kind: 'some', choice: { added }, freedTokens: Math.round(bytesFreed * tokensPerByte) };
}

/**
 * The overflow take around the working set; when that cannot bring the retry under the limit, the
 * take with the part the window may force out (core/epochs/working-set.ts): never what was brought
 * back since the person's latest prompt.
 */
function overflowAroundWorkingSet(ask: OverflowAsk, plan: readonly PlannedBlock[], elidedDir: string): OverflowTake<ToolResultsChoice> {
  const set = workingSetOfAsk(ask);
  const keep = workingSetOrdinals(ask.index, set);
  const frozen = ask.items.tool_results;
  // What was brought back since the person's latest prompt is never taken, not even on an overflow (issue 39).
  const held = workingSetOrdinals(ask.index, set.sincePrompt);
  const groups = repeatGroupsOfAsk(ask);
  const all = toolResultsOverflowTake({
    ...ask,
    frozen,
    plan: wholeGroups(held.size === 0 ? plan : plan.filter((b) => !isResultIn(b, held)), groups),
    elidedDir,
  });
  if (keep.size === held.size) return all;
  const around = toolResultsOverflowTake({
    ...ask,
    frozen,
    plan: wholeGroups(
      plan.filter((b) => !isResultIn(b, keep)),
      groups,
    ),
    elidedDir,
  });
  if (around.kind === 'some' && ask.tokens - around.freedTokens <= ask.limit) return around;
  return all;
}

/**
 * The epoch's blocks, policy and ledger, and a file for each frozen block (a block kept has no stub
 * to name one). Tool results are labelled (docs/labels.md); the deeper cut's parts carry no label
 * and no ledger row: their stubs say what they are (core/part-stub.ts). The policy records the
 * deeper cut it planned with, when it had one.
 */
function toolResultsPart(choice: ToolResultsChoice, policy: ElisionPolicy, gate: GateDecision | undefined): EpochPart<FrozenBlock> {
  const results = choice.added.filter((b) => !isPart(b));
  const parts = choice.added.filter(isPart).map(freezePart);
  const labelled = choice.labels === undefined ? undefined : freezeLabelled(results, choice.labels);
  const blocks: FrozenBlock[] = [...(labelled?.blocks ?? results.map(freezeBlock)), ...parts];
  const version = labelled === undefined ? POLICY_VERSION : LABELS_POLICY_VERSION;
  const frozen = blockKeys(blocks);
  const files: PlannedFile[] = [];
  for (const block of choice.added) {
    if (!frozen.has(blockKeyOf(block))) continue;
    files.push({ sha256: block.sha256, bytes: block.text, ext: 'txt' });
    if (block.rawSha256 !== undefined && block.raw !== undefined) files.push({ sha256: block.rawSha256, bytes: block.raw, ext: 'json' });
  }
  return {
    tag: TOOL_RESULTS_INFO.tag,
    policy: {
      name: POLICY_NAME,
      version,
      keepRecent: policy.keepRecent,
      minBytes: policy.minBytes,
      ...(policy.deep === undefined ? {} : { deep: policy.deep }),
    },
    items: blocks,
    ...(gate === undefined ? {} : { gate }),
    ...(labelled === undefined ? {} : { ledger: labelled.ledger }),
    originals: files.map((f) => ({ folder: TOOL_RESULTS_INFO.originals, ...f })),
  };
}

/** A planned part as the record keeps it: every field but its text and exact bytes. */
function freezePart(block: PlannedBlock): FrozenBlock {
  const { text: _text, raw: _raw, ...frozen } = block;
  return frozen;
}

const UTF8 = new TextEncoder();

function stubJsonBytes(block: FrozenBlock, elidedDir: string): number {
  return encodeJsonString(UTF8.encode(renderStub(block, elidedDir))).length;
}
