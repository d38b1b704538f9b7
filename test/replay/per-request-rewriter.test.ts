import { describe, expect, it } from 'vitest';
import { PerRequestRewriter } from '../../src/replay/per-request-rewriter.js';
import { rebuildConversations } from '../../src/replay/rebuild-conversations.js';
import { BodyBuilder } from '../../src/replay/request-body.js';
import { rewriteEveryRequest } from '../../src/replay/rewrite-every-request.js';
import { sha256Hex } from '../../src/state/sha256-hex.js';
import { fixtureLines } from './fixtures.js';

const ELIDED = '/home/me/.local/state/ctxshed/elided';

describe('PerRequestRewriter', () => {
  const cases: Array<[string, { keepRecent: number; minBytes: number }]> = [
    ['subagent.jsonl', { keepRecent: 6, minBytes: 1024 }],
    ['subagent.jsonl', { keepRecent: 1, minBytes: 64 }],
    ['tool_heavy.jsonl', { keepRecent: 1, minBytes: 64 }],
  ];
  for (const [file, policy] of cases) {
    it(`should give rewriteEveryRequest's outcome for every request of ${file} (keep ${policy.keepRecent}, over ${policy.minBytes} bytes)`, () => {
      // Arrange
      const conversations = rebuildConversations(fixtureLines(file), file);
      let stubbed = 0;

      // Act / Assert: each conversation's requests in order, one rewriter each, as the replay feeds them
      for (const c of conversations) {
        const builder = new BodyBuilder();
        const rewriter = new PerRequestRewriter(policy, ELIDED, sha256Hex);
        for (const r of c.requests) {
          const body = builder.build(r.model, r.messages);
          const expected = rewriteEveryRequest(body, policy, ELIDED, sha256Hex);
          const actual = rewriter.rewrite(body);
          expect(Buffer.from(actual.body).equals(Buffer.from(expected.body))).toBe(true);
          expect([...actual.stubbed]).toEqual([...expected.stubbed]);
          expect(actual.reason).toBe(expected.reason);
          stubbed += actual.stubbed.size;
        }
      }
      expect(stubbed).toBeGreaterThan(0);
    });
  }
});
