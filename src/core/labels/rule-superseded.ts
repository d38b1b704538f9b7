/**
 * The `superseded` rule: a Read of a path followed later by a Read covering the same lines, or a
 * Write or Edit of the same path (that did not fail). The newer version is in context or on
 * disk, so the older result is `drop`. A shell call that only shows a whole file (Codex's
 * `exec_command` running `cat <path>`, shell-read.ts) reads like a Read of all of it.
 */
import type { TranscriptIndex } from '../transcript-index-types.js';
import { filePathOf } from './main-input.js';
import { shellReadPathOf } from './shell-read.js';
import type { ToolCall } from '../read-tool-calls.js';

const READERS = new Set(['Read', 'NotebookRead']);
const WRITERS = new Set(['Write', 'Edit', 'MultiEdit', 'NotebookEdit']);

/** The candidate ordinals whose Read a later call supersedes. */
export function findSuperseded(index: TranscriptIndex, calls: ReadonlyMap<string, ToolCall>, candidates: readonly number[]): Set<number> {
  // Each path's later calls, in ordinal order; a failed call changed nothing and read nothing.
  const byPath = new Map<string, Array<{ readonly ordinal: number; readonly call: ToolCall }>>();
  for (const result of index.toolResults) {
    const call = calls.get(result.toolUseId);
    const path = call === undefined ? undefined : pathOf(call);
    if (call === undefined || path === undefined || result.isError) continue;
    let list = byPath.get(path);
    if (list === undefined) byPath.set(path, (list = []));
    list.push({ ordinal: result.ordinal, call });
  }
  const superseded = new Set<number>();
  for (const ordinal of candidates) {
    const result = index.toolResults[ordinal];
    const call = result === undefined ? undefined : calls.get(result.toolUseId);
    if (call === undefined || !isRead(call)) continue;
    const later = byPath.get(pathOf(call) ?? '') ?? [];
    const newer = later.some((next) => next.ordinal > ordinal && (WRITERS.has(next.call.name) || (isRead(next.call) && covers(next.call, call))));
    if (newer) superseded.add(ordinal);
  }
  return superseded;
}

// The file a call works on: a file tool's path, or the file a plain `cat` shows.
function pathOf(call: ToolCall): string | undefined {
  return filePathOf(call) ?? shellReadPathOf(call);
}

function isRead(call: ToolCall): boolean {
  return READERS.has(call.name) || shellReadPathOf(call) !== undefined;
}

/**
 * Whether a Read shows at least the lines another showed. `offset` is the first line (1 when
 * absent), `limit` the line count (the rest of the file when absent).
 */
export function covers(later: ToolCall, earlier: ToolCall): boolean {
  const a = lineRange(later);
  const b = lineRange(earlier);
  return a.first <= b.first && a.end >= b.end;
}

function lineRange(call: ToolCall): { first: number; end: number } {
  const offset = call.numbers.get('offset');
  const limit = call.numbers.get('limit');
  const first = offset === undefined || offset < 1 ? 1 : offset;
  return { first, end: limit === undefined ? Number.POSITIVE_INFINITY : first + limit };
}
