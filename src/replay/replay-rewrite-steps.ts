/** The two strategies of a session replay that rewrite each request afresh (replay-step.ts): per-request rewriting and server-side clearing. */
import { clearToolUses } from './clear-tool-uses.js';
import { type ConversationRewriters, openRewriters } from './conversation-rewriters.js';
import { countPassthrough, prefixThinkingOf, type SessionRun } from './session-run.js';
import { byWindow, settle } from './settle-strategy.js';
import type { StepFrame } from './step-frame.js';

/**
 * Per-request rewriting: every eligible block, every request. Returns the stubbed set's key; a
 * request whose set differs from `lastKey` rewrote the cached prefix.
 */
export function replayPerRequest(run: SessionRun, frame: StepFrame, lastKey: string): string {
  run.rewriteRefaults.perRequest.observe(frame.conversation.id, frame.request.messages);
  const every = rewritersOf(run, frame.conversation.id).perRequest.rewrite(frame.body);
  if (every.reason !== undefined && every.reason !== 'no_epoch') countPassthrough(run, `perRequest:${every.reason}`);
  const key = [...every.stubbed.keys()].join(',');
  const thinkingInvalid = invalidThinking(run, frame, 'perRequest', every.stubbed);
  settle(run, frame, { strategy: 'perRequest', sent: every.body, epochHere: key !== lastKey, outcome: byWindow(run, frame, every.body), thinkingInvalid });
  for (const [id, bytes] of every.stubbed) run.tallies.perRequest.addShed(`${frame.conversation.id}/${id}`, bytes);
  noteElided(run, frame, 'perRequest', key !== lastKey, every.stubbed);
  return key;
}

/** Server-side clearing: decided on the full prompt the client sends. Returns the cleared set's key, as above. */
export function replayClearing(run: SessionRun, frame: StepFrame, lastKey: string): string {
  run.rewriteRefaults.clearToolUses.observe(frame.conversation.id, frame.request.messages);
  const originalTokens = frame.prefix + frame.tokensPerByte * frame.region.length;
  const state = rewritersOf(run, frame.conversation.id);
  const clearing = clearToolUses(frame.request.messages, originalTokens, state.clearingMemo);
  const clearedBody = clearing.cleared.size === 0 ? frame.body : state.clearingBuilder.build(frame.sentModel, clearing.messages);
  const key = [...clearing.cleared.keys()].join(',');
  const thinkingInvalid = invalidThinking(run, frame, 'clearToolUses', clearing.cleared);
  settle(run, frame, { strategy: 'clearToolUses', sent: clearedBody, epochHere: key !== lastKey, outcome: byWindow(run, frame, clearedBody), thinkingInvalid });
  for (const [id, bytes] of clearing.cleared) run.tallies.clearToolUses.addShed(`${frame.conversation.id}/${id}`, bytes);
  noteElided(run, frame, 'clearToolUses', key !== lastKey, clearing.cleared);
  return key;
}

/**
 * Notes for the refaults what a rewriting strategy took out of this request when its set changed:
 * the strategy's count of changes (its `epochs`, which only grows) orders the notes as an engine's epochs do.
 */
function noteElided(run: SessionRun, frame: StepFrame, strategy: 'perRequest' | 'clearToolUses', changed: boolean, taken: ReadonlyMap<string, number>): void {
  if (!changed || taken.size === 0) return;
  const blocks = [...taken.keys()].map((toolUseId) => ({ toolUseId }));
  run.rewriteRefaults[strategy].elide(frame.conversation.id, run.tallies[strategy].epochs, frame.request.messages, blocks);
}

/** A conversation's rewriters, opened on its first request. */
function rewritersOf(run: SessionRun, conversation: string): ConversationRewriters {
  let rewriters = run.rewriters.get(conversation);
  if (rewriters === undefined) {
    rewriters = openRewriters(run.rescueSettings.rescue.policy, `${run.options.stateDir}/elided`);
    run.rewriters.set(conversation, rewriters);
  }
  return rewriters;
}

/**
 * On a `--prefix-check` replay, the main thread's thinking blocks this strategy's stubs
 * invalidate (prefix-thinking.ts); none otherwise: a model without the check takes them all.
 */
function invalidThinking(run: SessionRun, frame: StepFrame, strategy: 'perRequest' | 'clearToolUses', stubbed: ReadonlyMap<string, number>): number {
  if (run.options.prefixCheck !== true || !frame.main) return 0;
  return prefixThinkingOf(run, frame.conversation.id)[strategy].invalidThinking(frame.request.messages, new Set(stubbed.keys()));
}
