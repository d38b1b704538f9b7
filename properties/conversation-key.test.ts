/**
 * The conversation key (docs/design.md "Key"): derived from what never changes as the
 * transcript grows, so every request of a conversation finds the same key, through the client's
 * between-turn edits (the moving cache_control, a lone text block turned into a string); the agent
 * id header sets subagents apart.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { conversationKey, conversationKeyOf } from '../src/core/conversation-key.js';
import { findFirstMessage } from '../src/core/first-message.js';
import { conversationArb, conversationSpecArb, formatProfileArb, growConversation } from './arbitraries/index.js';
import { indexOf } from './support/rewrite-support.js';
import { sha256 } from './support/sha256.js';

const agentIdArb = fc.option(fc.oneof(fc.uuid(), fc.string()), { nil: undefined });

/** The key as the proxy computes it (first message alone), checked against the key from the full index. */
function keyOf(body: Uint8Array, agentId: string | undefined): string | undefined {
  const first = findFirstMessage(body);
  const key = first === null || first === undefined ? undefined : conversationKeyOf(body, first, agentId, sha256);
  expect(key).toBe(conversationKey(body, indexOf(body), agentId, sha256));
  return key;
}

describe('conversationKey', () => {
  it('should give every request of a conversation the same key', () => {
    fc.assert(
      fc.property(conversationArb(6), agentIdArb, (requests, agentId) => {
        const keys = new Set(requests.map((r) => keyOf(r.bytes, agentId)));
        expect(keys.size).toBe(1);
        expect([...keys][0]).toMatch(/^[0-9a-f]{64}$/);
      }),
    );
  });

  it('should give a different key under a different agent id', () => {
    fc.assert(
      fc.property(conversationArb(3), agentIdArb, agentIdArb, fc.nat(), (requests, a, b, x) => {
        fc.pre(a !== b);
        const body = requests[x % requests.length]!.bytes;
        expect(keyOf(body, a)).not.toBe(keyOf(body, b));
      }),
    );
  });

  it('should not depend on how the body is written (whitespace, escapes, key order)', () => {
    fc.assert(
      fc.property(conversationSpecArb(3), formatProfileArb, agentIdArb, (spec, otherFormat, agentId) => {
        const one = growConversation(spec);
        const other = growConversation({ ...spec, format: otherFormat });
        expect(keyOf(other[other.length - 1]!.bytes, agentId)).toBe(keyOf(one[0]!.bytes, agentId));
      }),
      { numRuns: 100 },
    );
  });
});
