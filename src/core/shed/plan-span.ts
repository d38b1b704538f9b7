/**
 * The shed plan: which span a shed epoch latched on this request would freeze, with its exact
 * bytes (for `<state>/spans/<sha256>.json`), its pins and its tombstone.
 */
import type { Sha256 } from '../ports.js';
import { indexTranscript, type TranscriptIndex } from '../transcript-index.js';
import { chooseSpan } from './choose-span.js';
import { isPersonTurn, readMessageFacts, type MessageFacts } from './message-facts.js';
import { isClientNotice } from './client-notice.js';
import { promptExcerpt } from './prompt-excerpt.js';
import { DEFAULT_SHED_POLICY, GOAL_MARKER, type FrozenSpan, type ShedPolicy, type ShedRefusal } from './shed-types.js';
import { exactText, lenientText } from './text-of.js';

/** A span the plan would freeze, with the bytes its files must hold. */
export interface PlannedSpan extends FrozenSpan {
  /** The span's exact bytes: the content of `<sha256>.json`. */
  readonly text: Uint8Array;
  /** Where the recent window began (for the record and the gate). */
  readonly windowStart: number;
}

/** The plan, or why nothing would be shed. */
export type ShedPlan =
  | { readonly kind: 'planned'; readonly span: PlannedSpan }
  | { readonly kind: 'none'; readonly reason: ShedRefusal; readonly detail: string };

/** What the plan may be handed besides the body. */
export interface ShedPlanOptions {
  readonly sha256: Sha256;
  readonly policy?: ShedPolicy;
  /** The body's index, when the caller already built it. */
  readonly index?: TranscriptIndex;
}

/** Plans the span a new shed epoch would freeze, after the conversation's `frozen` spans. Never throws. */
export function planShed(body: Uint8Array, frozen: readonly FrozenSpan[], options: ShedPlanOptions): ShedPlan {
  try {
    let index = options.index;
    if (index === undefined) {
      const indexed = indexTranscript(body);
      if (indexed.kind === 'failed') return { kind: 'none', reason: 'unreadable_body', detail: `${indexed.reason}: ${indexed.detail}` };
      index = indexed.index;
    }
    const facts = readMessageFacts(body, index);
    const choice = chooseSpan(index, facts, frozen, options.policy ?? DEFAULT_SHED_POLICY);
    if (choice.kind === 'none') return choice;
    return freezeChoice(body, index, facts, choice.first, choice.last, choice.windowStart, options.sha256);
  } catch (error) {
    return { kind: 'none', reason: 'unreadable_body', detail: error instanceof Error ? error.message : String(error) };
  }
}

function freezeChoice(
  body: Uint8Array,
  index: TranscriptIndex,
  facts: readonly MessageFacts[],
  first: number,
  last: number,
  windowStart: number,
  sha256: Sha256,
): ShedPlan {
  const pins: string[] = [];
  const notices: string[] = [];
  for (let m = first; m <= last; m++) {
    for (const token of facts[m]!.texts) {
      const exact = exactText(body, token);
      if (exact === undefined) {
        if (lenientText(body, token).includes(GOAL_MARKER)) {
          return { kind: 'none', reason: 'unreadable_pin', detail: `message ${m} has a pinned text that is not valid Unicode` };
        }
        continue;
      }
      if (exact.includes(GOAL_MARKER)) pins.push(exact);
      else if (isClientNotice(exact)) notices.push(exact);
    }
  }
  const text = body.slice(index.messages[first]!.start, index.messages[last]!.end);
  const firstPrompt = facts.findIndex(isPersonTurn);
  const base = { first, last, sha256: sha256(text), bytes: text.length, pins, ...(notices.length === 0 ? {} : { notices }), text, windowStart };
  if (firstPrompt < first || firstPrompt > last) return { kind: 'planned', span: base };
  const excerpt = promptExcerpt(facts[firstPrompt]!.texts.map((token) => lenientText(body, token)));
  return { kind: 'planned', span: { ...base, tombstone: excerpt } };
}

/** The frozen record of a planned span, as an epoch stores it (no bytes). */
export function freezeSpan(span: PlannedSpan): FrozenSpan {
  const { first, last, sha256, bytes, pins, notices, tombstone } = span;
  const frozen = { first, last, sha256, bytes, pins: [...pins], ...(notices === undefined ? {} : { notices: [...notices] }) };
  return tombstone === undefined ? frozen : { ...frozen, tombstone };
}
