/**
 * Where a conversation stands in its turn when an epoch could latch, for the latch's timing on a
 * model that runs the prefix check (docs/rescue.md, "Preserved thinking"): an epoch latched while
 * the newest message is the person's prompt removes only the earlier turns' thinking, while one
 * latched mid tool loop also removes the current turn's. Pure.
 */
import type { TranscriptIndex } from '../transcript-index-types.js';
import { runsPrefixCheck } from './prefix-check-models.js';

/**
 * `prompt`: on a prefix-check model, hold an epoch (`mid_turn`) until the newest message is a
 * person's prompt, unless the reading is at the gate's ceiling. `anywhere` (the default): latch
 * wherever the threshold says, as on every other model, and record an epoch latched mid-turn.
 */
export type LatchAt = 'prompt' | 'anywhere';

export const LATCH_AT_CHOICES: readonly LatchAt[] = ['prompt', 'anywhere'];

/**
 * The default, chosen on replay figures (docs/rescue.md, "Preserved thinking"): in the shared
 * sessions a turn is a tool loop of dozens of requests, so waiting for a prompt mostly waits for
 * the ceiling, giving up the runway for a few thinking blocks.
 */
export const DEFAULT_LATCH_AT: LatchAt = 'anywhere';

/** What the epoch decision reads about the turn. */
export interface TurnPlace {
  /** The request's model runs the prefix check, or the conversation learned that it does. */
  readonly prefixCheck: boolean;
  /** The newest message is a person's prompt. */
  readonly atPrompt: boolean;
  readonly latchAt: LatchAt;
}

/**
 * Whether the newest message is a person's prompt: a user message holding anything but
 * tool_result blocks (a plain string content included). A user message of tool results only, an
 * assistant message or a system message is mid-turn.
 */
export function isAtPrompt(index: TranscriptIndex): boolean {
  const last = index.messages[index.messages.length - 1];
  if (last === undefined || last.role !== 'user') return false;
  return last.blocks.length === 0 || last.blocks.some((b) => b.type !== 'tool_result');
}

/** The turn place of a request; `learned`: the conversation was seen refusing an edit with the prefix check's 400. */
export function turnPlaceOf(index: TranscriptIndex, learned: boolean, latchAt: LatchAt): TurnPlace {
  return { prefixCheck: runsPrefixCheck(index.model, learned), atPrompt: isAtPrompt(index), latchAt };
}
