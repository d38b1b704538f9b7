/**
 * The shed plan: which span a shed epoch latched on this request would freeze, with its exact
 * bytes (for `<state>/spans/<sha256>.json`), its pins and its tombstone.
 */
import type { Sha256 } from '../ports.js';
import { indexTranscript, type TranscriptIndex } from '../messages/transcript-index.js';
import { chooseSpan, type SpanKeep } from './choose-span.js';
import { isPersonTurn, personTexts, type MessageFacts, type MessageFactsReader } from './message-facts.js';
import { isClientNotice } from './client-notice.js';
import { latestPrompt, promptExcerpt } from './prompt-excerpt.js';
import { DEFAULT_SHED_POLICY, GOAL_MARKER, recentBudgetTokens, type FrozenSpan, type PlannedSpan, type ShedPolicy, type ShedRefusal } from './shed-types.js';
import { exactText, lenientText } from './text-of.js';
import type { ReadPage } from './read-pages.js';

/** The plan, or why nothing would be shed. */
export type ShedPlan =
  | { readonly kind: 'planned'; readonly span: PlannedSpan }
  | { readonly kind: 'none'; readonly reason: ShedRefusal; readonly detail: string; readonly cutByWorkingSet?: true };

/** What the plan may be handed besides the body. */
export interface ShedPlanOptions {
  readonly sha256: Sha256;
  /** How the body's messages are read: its dialect's `messageFacts` (core/dialects/dialect.ts). */
  readonly readFacts: MessageFactsReader;
  readonly policy?: ShedPolicy;
  /** The context window in tokens, which sizes the recent window (none: the policy's floor). */
  readonly window?: number;
  /** A recent window of this many tokens instead of the policy's (the tight plan near the window). */
  readonly recentTokens?: number;
  /** The body's index, when the caller already built it. */
  readonly index?: TranscriptIndex;
  /** The first message of the working set, which the span must not hold (-1 or absent: none; core/epochs/working-set.ts). */
  readonly keepFrom?: number;
  /** The last message of the working set: a span may also start after it (-1 or absent: it ends before `keepFrom`). */
  readonly keepTo?: number;
  /** Answers that go together, by the messages they lie in: a span holds all of a group or none (choose-span.ts). */
  readonly together?: SpanKeep['together'];
  /** The bring-back bytes of a run of messages, to weigh a span on its new weight (choose-span.ts). */
  readonly broughtBack?: SpanKeep['broughtBack'];
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
    const facts = options.readFacts(body, index);
    const recentTokens = options.recentTokens ?? recentBudgetTokens(options.policy ?? DEFAULT_SHED_POLICY, options.window);
    const keep = {
      keepFrom: options.keepFrom ?? -1,
      keepTo: options.keepTo ?? -1,
      ...(options.together === undefined ? {} : { together: options.together }),
      ...(options.broughtBack === undefined ? {} : { broughtBack: options.broughtBack }),
    };
    const choice = chooseSpan(index, facts, frozen, recentTokens, keep);
    if (choice.kind === 'none') return choice;
    const plan = freezeChoice(body, index, facts, choice.first, choice.last, choice.windowStart, options.sha256);
    return plan.kind === 'planned' && choice.cutByWorkingSet ? { kind: 'planned', span: { ...plan.span, cutByWorkingSet: true } } : plan;
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
    // The client's system messages (environment, skills, deferred tools, the MCP servers'
    // instructions, ctxshed's restore tool among them) are all in force after their span.
    const fromSystem = facts[m]!.role === 'system';
    for (const token of facts[m]!.texts) {
      const exact = exactText(body, token);
      if (exact === undefined) {
        if (lenientText(body, token).includes(GOAL_MARKER)) {
          return { kind: 'none', reason: 'unreadable_pin', detail: `message ${m} has a pinned text that is not valid Unicode` };
        }
        continue;
      }
      if (exact.includes(GOAL_MARKER)) pins.push(exact);
      else if (fromSystem || isClientNotice(exact)) notices.push(exact);
    }
  }
  const text = body.slice(index.messages[first]!.start, index.messages[last]!.end);
  const firstPrompt = facts.findIndex(isPersonTurn);
  const prompt = promptInSpan(body, facts, first, last);
  const base = {
    first,
    last,
    sha256: sha256(text),
    bytes: text.length,
    pins,
    ...(notices.length === 0 ? {} : { notices }),
    ...(prompt === undefined ? {} : { prompt }),
    text,
    windowStart,
  };
  if (firstPrompt < first || firstPrompt > last) return { kind: 'planned', span: base };
  const excerpt = promptExcerpt(facts[firstPrompt]!.texts.map((token) => lenientText(body, token)));
  return { kind: 'planned', span: { ...base, tombstone: excerpt } };
}

/**
 * The person's latest prompt when it lies in the span: their texts of it (not the client's
 * reminders, not a pinned text, which is hoisted already), verbatim, cut to PROMPT_MAX_CHARS.
 */
function promptInSpan(body: Uint8Array, facts: readonly MessageFacts[], first: number, last: number): string | undefined {
  const at = facts.findLastIndex((f) => f.prompt);
  if (at < first || at > last) return undefined;
  const texts = personTexts(body, facts[at]!).filter((t) => !t.includes(GOAL_MARKER));
  return texts.length === 0 ? undefined : latestPrompt(texts);
}

/** The frozen record of a planned span, as an epoch stores it (no bytes). */
export function freezeSpan(span: PlannedSpan): FrozenSpan {
  const { first, last, sha256, bytes, pins, notices, prompt, tombstone } = span;
  const frozen = {
    first,
    last,
    sha256,
    bytes,
    pins: [...pins],
    ...(notices === undefined ? {} : { notices: [...notices] }),
    ...(prompt === undefined ? {} : { prompt }),
  };
  return tombstone === undefined ? frozen : { ...frozen, tombstone };
}

/**
 * The frozen record a latch keeps: with the pages its `.md` is read in (read-pages.ts), which the
 * stub names. The estimates before a latch use `freezeSpan`: a few dozen bytes of stub less.
 */
export function freezeSpanAtLatch(span: PlannedSpan, readPages: readonly ReadPage[]): FrozenSpan {
  const frozen = freezeSpan(span);
  return readPages.length === 0 ? frozen : { ...frozen, readPages: readPages.map(([offset, limit]) => [offset, limit] as const) };
}
