/** A session's rebuilt conversations as the TTL back-test reads them: ids, models, times, usage. Pure. */
import type { RebuiltConversation } from './rebuild-conversations.js';
import type { TtlConversation } from './ttl-pairs.js';

/** Claude Code names its compaction call's file `agent-acompact-<id>.jsonl` (agentId `acompact-<id>`). */
const COMPACTION_AGENT_PREFIX = 'acompact';

/** The conversations of the session file `session`, without their messages. */
export function toTtlConversations(session: string, conversations: readonly RebuiltConversation[]): TtlConversation[] {
  return conversations.map((c) => ({
    id: `${session}:${c.id}`,
    session,
    kind: c.kind,
    compaction: c.kind === 'subagent' && (c.agentId?.startsWith(COMPACTION_AGENT_PREFIX) ?? false),
    requests: c.requests.map((r) => ({ id: r.id, model: r.model, sentMs: r.sentMs, usage: r.usage })),
  }));
}
