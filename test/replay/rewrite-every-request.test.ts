import { describe, expect, it } from 'vitest';
import { DEFAULT_POLICY } from '../../src/core/plan-elision.js';
import { indexTranscript } from '../../src/core/messages/transcript-index.js';
import { parseStub } from '../../src/core/stub.js';
import { rewriteEveryRequest } from '../../src/replay/rewrite-every-request.js';
import { sha256Hex } from '../../src/state/sha256-hex.js';

const big = (i: number): string => `${i}`.repeat(2000);
function body(n: number): Uint8Array {
  const messages = [];
  for (let i = 0; i < n; i++) {
    messages.push({ role: 'assistant', content: [{ type: 'tool_use', id: `t${i}`, name: 'Read', input: {} }] });
    messages.push({ role: 'user', content: [{ tool_use_id: `t${i}`, type: 'tool_result', content: big(i % 10) }] });
  }
  return new TextEncoder().encode(JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'go' }, ...messages] }));
}

describe('rewriteEveryRequest', () => {
  it('should stub every block older than the newest kept ones', () => {
    // Arrange
    const input = body(8);

    // Act
    const outcome = rewriteEveryRequest(input, DEFAULT_POLICY, '/tmp/elided', sha256Hex);

    // Assert: 8 results, 6 kept
    expect([...outcome.stubbed.keys()]).toEqual(['t0', 't1']);
    const indexed = indexTranscript(outcome.body);
    expect(indexed.kind).toBe('indexed');
    const sent = JSON.parse(new TextDecoder().decode(outcome.body)) as { messages: Array<{ content: Array<{ content: unknown }> }> };
    const first = sent.messages[2]?.content[0]?.content;
    expect(parseStub(String(first))?.bytes).toBe(2000);
    expect(outcome.body.length).toBeLessThan(input.length);
  });

  it('should pass a request with nothing eligible through unchanged', () => {
    // Arrange
    const input = body(3);

    // Act
    const outcome = rewriteEveryRequest(input, DEFAULT_POLICY, '/tmp/elided', sha256Hex);

    // Assert
    expect(outcome.body).toBe(input);
    expect(outcome.stubbed.size).toBe(0);
  });
});
