import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DEFAULT_POLICY, planElision } from '../../src/core/plan-elision.js';
import { indexTranscript } from '../../src/core/messages/transcript-index.js';

const sha256 = (b: Uint8Array): string => createHash('sha256').update(b).digest('hex');
const ELIDED = '/home/me/.local/state/ctxshed/elided';

function body(): Uint8Array {
  const big = 'x'.repeat(3000);
  const messages: unknown[] = [{ role: 'user', content: 'go' }];
  for (let i = 0; i < 10; i++) {
    const path = i === 2 ? `${ELIDED}/${'a'.repeat(64)}.txt` : `/src/file-${i}.ts`;
    messages.push({ role: 'assistant', content: [{ type: 'tool_use', id: `t${i}`, name: 'Read', input: { file_path: path } }] });
    messages.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: `t${i}`, content: `${big}${i}` }] });
  }
  return new TextEncoder().encode(JSON.stringify({ model: 'm', messages }));
}

describe('planElision', () => {
  it('should keep in view a tool result that reads an elided file back', () => {
    const b = body();
    const indexed = indexTranscript(b);
    if (indexed.kind !== 'indexed') throw new Error('does not index');

    const withDir = planElision(b, indexed.index, DEFAULT_POLICY, sha256, { elidedDir: ELIDED }).map((p) => p.toolUseId);
    const without = planElision(b, indexed.index, DEFAULT_POLICY, sha256).map((p) => p.toolUseId);

    expect(without).toEqual(['t0', 't1', 't2', 't3']);
    expect(withDir).toEqual(['t0', 't1', 't3']);
  });
});
