/**
 * The `retried` rule: an error result (`is_error`) of a call that later ran again, with the same
 * tool and the same main input, and succeeded. The failure is history, so it is `drop`.
 */
import type { TranscriptIndex } from '../transcript-index-types.js';
import { mainInputOf } from './main-input.js';
import type { ToolCall } from '../read-tool-calls.js';

/** The candidate ordinals that failed and were later run again with success. */
export function findRetried(index: TranscriptIndex, calls: ReadonlyMap<string, ToolCall>, candidates: readonly number[]): Set<number> {
  // The latest successful run of each (tool, main input).
  const lastSuccess = new Map<string, number>();
  for (const result of index.toolResults) {
    const key = result.isError ? undefined : callKey(calls.get(result.toolUseId));
    if (key !== undefined) lastSuccess.set(key, result.ordinal);
  }
  const retried = new Set<number>();
  for (const ordinal of candidates) {
    const result = index.toolResults[ordinal];
    if (result === undefined || !result.isError) continue;
    const key = callKey(calls.get(result.toolUseId));
    if (key !== undefined && (lastSuccess.get(key) ?? -1) > ordinal) retried.add(ordinal);
  }
  return retried;
}

/** Tool and whole main input: a call without a main input is never taken for another. */
function callKey(call: ToolCall | undefined): string | undefined {
  const input = call === undefined ? undefined : mainInputOf(call);
  return call === undefined || input === undefined ? undefined : JSON.stringify([call.name, input]);
}
