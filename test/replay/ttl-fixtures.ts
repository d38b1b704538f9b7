/** Hand-built usage sequences for the TTL back-test, whose answers are known. */
import type { RecordedUsage } from '../../src/replay/rebuild-conversations.js';
import type { TtlConversation, TtlRequest } from '../../src/replay/ttl-pairs.js';

export const MIN = 60_000;
const T0 = Date.parse('2026-02-11T20:00:00.000Z');

/** A request sent `minutes` after T0 that read `read` tokens, wrote `write` (at `ttl`) and sent `input` uncached. */
export function req(id: string, minutes: number, read: number, write: number, options: { input?: number; ttl?: '5m' | '1h'; model?: string } = {}): TtlRequest {
  const usage: RecordedUsage = { input: options.input ?? 1, cacheRead: read, cacheWrite: write, cacheWrite1h: options.ttl === '1h' ? write : 0, output: 10 };
  return { id, model: options.model ?? 'claude-opus-4-6', sentMs: T0 + minutes * MIN, usage };
}

/** A conversation of session `session`. */
export function conv(
  id: string,
  requests: TtlRequest[],
  options: { session?: string; kind?: 'main' | 'subagent'; compaction?: boolean } = {},
): TtlConversation {
  return { id, session: options.session ?? 'a.jsonl', kind: options.kind ?? 'main', compaction: options.compaction ?? false, requests };
}
