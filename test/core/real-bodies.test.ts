/**
 * The core over real Claude Code request bodies (test/fixtures/real, captured from the real
 * client by test/real-client/capture-bodies.ts). Skipped only where that folder is absent.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { conversationKey } from '../../src/core/conversation-key.js';
import { DEFAULT_POLICY } from '../../src/core/plan-elision.js';
import { indexTranscript } from '../../src/core/messages/transcript-index.js';
import { mustIndex, sha256 } from './bodies.js';
import { roundTrip } from './round-trip.js';

const DIR = fileURLToPath(new URL('../fixtures/real/', import.meta.url));
const PRESENT = existsSync(DIR);
const FILES = PRESENT
  ? readdirSync(DIR)
      .filter((f) => f.endsWith('.json'))
      .sort()
  : [];
const ELIDE_ALL = { keepRecent: 0, minBytes: 0 };

function load(file: string): Uint8Array {
  return new Uint8Array(readFileSync(`${DIR}${file}`));
}

describe('planElision, rewriteRequest and inflate on real bodies', () => {
  if (!PRESENT) {
    it.skip('should run over test/fixtures/real/*.json: the folder is absent in this checkout', () => {});
    return;
  }

  it('should find captured bodies in test/fixtures/real', () => {
    // Arrange: the folder exists (else this block is skipped).

    // Act
    const count = FILES.length;

    // Assert
    expect(count, `test/fixtures/real exists but holds no .json body`).toBeGreaterThan(0);
  });

  it.each(FILES)('should index %s as a Messages body', (file) => {
    // Arrange
    const body = load(file);

    // Act
    const outcome = indexTranscript(body);

    // Assert
    expect(outcome.kind).toBe('indexed');
  });

  it.each(FILES)('should round trip %s with the default policy, stubbing only planned blocks', (file) => {
    // Arrange
    const body = load(file);

    // Act
    const { plan } = roundTrip(body, DEFAULT_POLICY);

    // Assert
    expect(plan.every((b) => b.bytes > DEFAULT_POLICY.minBytes)).toBe(true);
  });

  it.each(FILES)('should round trip %s when every tool_result outside the last message is elided', (file) => {
    // Arrange
    const body = load(file);
    const index = mustIndex(body);

    // Act
    const { plan } = roundTrip(body, ELIDE_ALL);

    // Assert
    const last = index.messages.length - 1;
    const expected = index.toolResults.filter((t) => t.messageIndex !== last && t.textOnly && !t.hasCacheControl);
    expect(plan.map((b) => b.ordinal)).toEqual(expected.map((t) => t.ordinal));
  });

  it('should give every main-thread request one conversation key, and the subagent and side calls others', () => {
    // Arrange
    const main = FILES.filter((f) => f.includes('-main-'));
    const others = FILES.filter((f) => !f.includes('-main-'));
    const keyOf = (file: string, agentId?: string) => {
      const body = load(file);
      return conversationKey(body, mustIndex(body), agentId, sha256);
    };

    // Act
    const mainKeys = new Set(main.map((f) => keyOf(f)));
    const otherKeys = others.map((f) => keyOf(f, f.includes('subagent') ? '0123456789abcdef0' : undefined));

    // Assert
    expect(main.length).toBeGreaterThan(1);
    expect(mainKeys.size).toBe(1);
    for (const key of otherKeys) expect(mainKeys.has(key)).toBe(false);
  });
});
