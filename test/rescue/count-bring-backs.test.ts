import { describe, expect, it } from 'vitest';
import { indexTranscript } from '../../src/core/messages/transcript-index.js';
import { MESSAGES_API } from '../../src/core/dialects/messages.js';
import { workingSetOf } from '../../src/core/epochs/working-set.js';
import type { FrozenSpan } from '../../src/core/shed/shed-types.js';
import type { TranscriptIndex } from '../../src/core/transcript-index-types.js';
import type { ConversationEntry } from '../../src/rescue/conversation-table.js';
import { newBringBacks } from '../../src/rescue/count-bring-backs.js';

const SPAN: FrozenSpan = { first: 1, last: 4, sha256: 'c'.repeat(64), bytes: 4000, pins: [] };
const RESTORE = 'mcp__ctxshed__restore';

function entry(): ConversationEntry {
  return {
    key: 'k'.repeat(64),
    record: undefined,
    items: { tool_results: [], span: [SPAN], thinking_only: [] },
    kind: 'span',
    reading: undefined,
    latching: Promise.resolve(),
    fileStamp: '',
    refaulted: new Set(),
  };
}

type Turn = { readonly id: string; readonly name: string; readonly input: unknown } | { readonly prompt: string };

/** A Messages body: a first prompt, then each turn (a call and its answer, or the person's prompt). */
function body(turns: readonly Turn[]): { body: Uint8Array; index: TranscriptIndex } {
  const messages: unknown[] = [{ role: 'user', content: 'go' }];
  for (const turn of turns) {
    if ('prompt' in turn) {
      messages.push({ role: 'assistant', content: [{ type: 'text', text: 'done' }] }, { role: 'user', content: turn.prompt });
      continue;
    }
    messages.push({ role: 'assistant', content: [{ type: 'tool_use', ...turn }] });
    messages.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: turn.id, content: 'the span, again' }] });
  }
  const bytes = new TextEncoder().encode(JSON.stringify({ model: 'claude-sonnet-4-5', messages }));
  const indexed = indexTranscript(bytes);
  if (indexed.kind !== 'indexed') throw new Error(indexed.detail);
  return { body: bytes, index: indexed.index };
}

const restore = (id: string): Turn => ({ id, name: RESTORE, input: { handle: SPAN.sha256 } });

describe('newBringBacks', () => {
  it("should count each newest call that brought a stored text back once, whatever the request's resends", () => {
    const e = entry();
    const first = body([restore('r1')]);

    expect(newBringBacks(e, first.body, first.index, MESSAGES_API)).toEqual([SPAN.sha256]);
    expect(newBringBacks(e, first.body, first.index, MESSAGES_API)).toEqual([]);
    const read = body([restore('r1'), { id: 'r2', name: 'Read', input: { file_path: `/state/spans/${SPAN.sha256}.md` } }]);
    expect(newBringBacks(e, read.body, read.index, MESSAGES_API)).toEqual([SPAN.sha256]);
    const other = body([{ id: 'f1', name: 'Read', input: { file_path: '/src/a.ts' } }]);
    expect(newBringBacks(e, other.body, other.index, MESSAGES_API)).toEqual([]);
  });

  it('should keep in the working set a span brought back twice whose first restore call was shed since', () => {
    // The first restore (r1) lies in a span an epoch shed: only r2 is left in the body, before the person's latest prompt.
    const later = body([restore('r2'), { prompt: 'now the tests' }, { id: 'f1', name: 'Read', input: { file_path: '/src/a.ts' } }]);
    const stored = new Set([SPAN.sha256]);

    const fromBody = workingSetOf(later.body, later.index, stored);
    const counted = workingSetOf(later.body, later.index, stored, new Set(), undefined, { [SPAN.sha256]: 2 });

    expect(fromBody.calls.has('r2')).toBe(false);
    expect(counted.calls.has('r2')).toBe(true);
  });
});
