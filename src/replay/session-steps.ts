/** The requests a session replay walks (replay-session.ts): every conversation's, in time order, and which of them are priced. */
import type { CompactionPoint } from './compaction-point.js';
import type { RebuiltConversation, RebuiltRequest } from './rebuild-conversations.js';

/** Claude Code names its compaction call's agent `acompact-<id>` (file `agent-acompact-<id>.jsonl`). */
const COMPACTION_AGENT_PREFIX = 'acompact';

/** One request of the replay: its conversation and its place there. */
export interface Step {
  readonly conversation: RebuiltConversation;
  readonly request: RebuiltRequest;
  readonly n: number;
}

/** Whether a request is priced under `COST_BASIS`: sent before the first compaction, not the compaction's own call. */
export function isPriced(step: Step, point: CompactionPoint): boolean {
  const c = step.conversation;
  if (c.afterCompaction === true || isCompactionCall(step)) return false;
  const cut = point.recorded?.timeMs;
  if (cut === undefined || Number.isNaN(cut) || Number.isNaN(step.request.sentMs)) return true;
  // The conversation that compacted is priced whole: its last request is what reached the point.
  return c.id === point.recorded?.conversation || step.request.sentMs < cut;
}

/** Whether a request is the client's compaction call (its `acompact-` agent): it summarises, it does not work. */
export function isCompactionCall(step: Step): boolean {
  return isCompactionConversation(step.conversation);
}

/** Whether a conversation is the client's compaction call (its `acompact-` agent). */
export function isCompactionConversation(c: RebuiltConversation): boolean {
  return c.kind === 'subagent' && (c.agentId?.startsWith(COMPACTION_AGENT_PREFIX) ?? false);
}

/** All requests of all conversations by time, so cumulative cost follows the session's clock. */
export function inTimeOrder(conversations: readonly RebuiltConversation[]): Step[] {
  const steps = conversations.flatMap((conversation) => conversation.requests.map((request, n) => ({ conversation, request, n })));
  // Stable sort: requests without a time keep their file order.
  return steps.sort((a, b) => (Number.isNaN(a.request.timeMs) || Number.isNaN(b.request.timeMs) ? 0 : a.request.timeMs - b.request.timeMs));
}
