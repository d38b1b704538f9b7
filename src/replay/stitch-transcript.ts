/**
 * A Claude Code session's history as if the client never compacted (issue 27): the transcript
 * keeps every turn after a compaction, so dropping the main thread's `compact_boundary` record and
 * the summary record after it, and re-linking the next record to the last one before the boundary,
 * leaves one conversation from the first turn to the last. The requests after a boundary then
 * carry usage the client reported for its compacted prompt: `markEstimated` flags them, and
 * whole-session.ts re-estimates their prompt from bytes. Pure: lines in, lines out.
 */
import type { RebuiltConversation } from './rebuild-conversations.js';

/** A boundary the stitch removed. */
export interface StitchedBoundary {
  /** When the client compacted (ms since the epoch; NaN when the record has no time). */
  readonly timeMs: number;
  readonly trigger: string;
  /** The summary record removed with it, if there was one. */
  readonly summaryUuid?: string;
}

/** The stitched lines, and the boundaries taken out of them. */
export interface StitchedTranscript {
  readonly lines: readonly string[];
  readonly boundaries: readonly StitchedBoundary[];
}

/** Removes the main thread's compaction boundaries and summaries; a transcript without one comes back as it was. */
export function stitchTranscript(lines: readonly string[]): StitchedTranscript {
  const out: string[] = [];
  const boundaries: StitchedBoundary[] = [];
  /** Record uuid removed -> the uuid the next record links to instead. */
  const relink = new Map<string, string | null>();
  let pending: { time: number; trigger: string } | undefined;
  for (const line of lines) {
    const record = parseRecord(line);
    if (record === undefined || record['isSidechain'] === true) {
      out.push(line);
      continue;
    }
    if (record['type'] === 'system' && record['subtype'] === 'compact_boundary') {
      if (pending !== undefined) boundaries.push({ timeMs: pending.time, trigger: pending.trigger });
      const logical = typeof record['logicalParentUuid'] === 'string' ? record['logicalParentUuid'] : null;
      if (typeof record['uuid'] === 'string') relink.set(record['uuid'], logical);
      pending = { time: timeOf(record), trigger: triggerOf(record) };
      continue;
    }
    if (pending !== undefined && record['isCompactSummary'] === true) {
      const uuid = typeof record['uuid'] === 'string' ? record['uuid'] : undefined;
      if (uuid !== undefined) relink.set(uuid, relinked(record['parentUuid'], relink));
      boundaries.push({ timeMs: pending.time, trigger: pending.trigger, ...(uuid === undefined ? {} : { summaryUuid: uuid }) });
      pending = undefined;
      continue;
    }
    const parent = record['parentUuid'];
    out.push(typeof parent === 'string' && relink.has(parent) ? JSON.stringify({ ...record, parentUuid: relinked(parent, relink) }) : line);
  }
  if (pending !== undefined) boundaries.push({ timeMs: pending.time, trigger: pending.trigger });
  return { lines: boundaries.length === 0 ? lines : out, boundaries };
}

/**
 * Flags the main thread's requests answered after a boundary: their recorded usage counts the
 * compacted prompt, not the stitched one.
 */
export function markEstimated(conversations: readonly RebuiltConversation[], boundaries: readonly StitchedBoundary[]): RebuiltConversation[] {
  const first = boundaries.map((b) => b.timeMs).find((t) => !Number.isNaN(t));
  if (first === undefined) return [...conversations];
  return conversations.map((c) => (c.kind !== 'main' ? c : { ...c, requests: c.requests.map((r) => (r.timeMs > first ? { ...r, estimated: true } : r)) }));
}

/** The uuid a removed record's children link to: its own parent, through any removed parent. */
function relinked(parent: unknown, relink: ReadonlyMap<string, string | null>): string | null {
  if (typeof parent !== 'string') return null;
  return relink.has(parent) ? (relink.get(parent) ?? null) : parent;
}

function parseRecord(line: string): Record<string, unknown> | undefined {
  if (line.trim() === '') return undefined;
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function timeOf(record: Record<string, unknown>): number {
  return typeof record['timestamp'] === 'string' ? Date.parse(record['timestamp']) : Number.NaN;
}

function triggerOf(record: Record<string, unknown>): string {
  const meta = record['compactMetadata'];
  const trigger = typeof meta === 'object' && meta !== null ? (meta as Record<string, unknown>)['trigger'] : undefined;
  return typeof trigger === 'string' ? trigger : 'unknown';
}
