/**
 * The local labeller: each block an epoch considers gets a label by the first rule that fits
 * (secret, superseded, duplicate, retried), else `pointer`. Pure and deterministic: the same
 * body and candidates give the same labels, in any process.
 */
import { blockText } from '../block-text.js';
import type { PlannedBlock } from '../plan-elision.js';
import type { Sha256 } from '../ports.js';
import type { TranscriptIndex } from '../transcript-index-types.js';
import { describeInput, refetchFor, type RefetchOptions } from './describe-call.js';
import type { BlockLabel, LabelRule } from './label-types.js';
import { UNKNOWN_TOOL } from './label-types.js';
import { mainInputOf } from './main-input.js';
import { readToolCalls, type ToolCall } from '../read-tool-calls.js';
import { holdsSecret } from './redact-text.js';
import { findDuplicates } from './rule-duplicate.js';
import { findRetried } from './rule-retried.js';
import { findSuperseded } from './rule-superseded.js';

/** What the labeller looks at. */
export interface LabelInput extends RefetchOptions {
  readonly body: Uint8Array;
  readonly index: TranscriptIndex;
  /** The blocks the epoch considers: eligible and not frozen by an earlier epoch. */
  readonly candidates: readonly PlannedBlock[];
  readonly sha256: Sha256;
  /** How the body's API lists its tool calls (its dialect's `calls`); the Messages API's by default. */
  readonly readCalls?: (body: Uint8Array, index: TranscriptIndex) => ReadonlyMap<string, ToolCall>;
}

const UTF8 = new TextDecoder('utf-8');

/** One label per candidate, in the candidates' order; `score` is `local` for every one. */
export function labelBlocks(input: LabelInput): BlockLabel[] {
  const { body, index, candidates } = input;
  const calls = (input.readCalls ?? readToolCalls)(body, index);
  const ordinals = candidates.map((c) => c.ordinal);
  const superseded = findSuperseded(index, calls, ordinals);
  const duplicates = findDuplicates(textHashes(input), ordinals);
  const retried = findRetried(index, calls, ordinals);
  return candidates.map((block) => {
    const call = calls.get(block.toolUseId);
    const tool = call?.name ?? UNKNOWN_TOOL;
    const rule: LabelRule = holdsSecret(UTF8.decode(block.text))
      ? 'secret'
      : superseded.has(block.ordinal)
        ? 'superseded'
        : duplicates.has(block.ordinal)
          ? 'duplicate'
          : retried.has(block.ordinal)
            ? 'retried'
            : 'default';
    return {
      ordinal: block.ordinal,
      toolUseId: block.toolUseId,
      tool,
      input: describeInput(call === undefined ? undefined : mainInputOf(call)),
      label: rule === 'default' ? 'pointer' : 'drop',
      rule,
      score: 'local',
      refetch: refetchFor(tool, input),
    };
  });
}

/** The sha256 of every tool result's text (the plan already hashed the candidates'). */
function textHashes(input: LabelInput): Array<string | undefined> {
  const known = new Map(input.candidates.map((c) => [c.ordinal, c.sha256]));
  return input.index.toolResults.map((result) => {
    const sha = known.get(result.ordinal);
    if (sha !== undefined) return sha;
    const text = blockText(input.body, result);
    return text === undefined ? undefined : input.sha256(text);
  });
}
