/**
 * The core over real Codex 0.169.0 request bodies (test/fixtures/real-openai, captured from the
 * real client by test/real-client/capture-openai-bodies.ts). They are one thread, in order, the
 * last two after `codex exec resume`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CODEX_SESSION_HEADER } from '../../../src/core/dialects/openai-dialect-parts.js';
import { DEFAULT_POLICY, freezeBlock, planElision } from '../../../src/core/plan-elision.js';
import { indexResponses } from '../../../src/core/openai/responses-index.js';
import { openAiConversationKey, openAiFirstPrompt } from '../../../src/core/openai/conversation-key.js';
import { RESPONSES_API } from '../../../src/core/dialects/responses.js';
import { rewriteRequest } from '../../../src/core/epochs/tool-results/tool-results.js';
import type { OpenAiIndex } from '../../../src/core/openai/openai-index.js';
import { bytesEqual } from '../../../src/core/block-text.js';
import { sha256 } from '../bodies.js';
import { ELIDED_DIR, roundTrip } from '../round-trip.js';

const DIR = fileURLToPath(new URL('../../fixtures/real-openai/', import.meta.url));
const FILES = readdirSync(DIR)
  .filter((f) => f.endsWith('.json') && !f.endsWith('.headers.json'))
  .sort();
const ELIDE_ALL = { keepRecent: 0, minBytes: 0 };

function load(file: string): Uint8Array {
  return new Uint8Array(readFileSync(`${DIR}${file}`));
}

function headerOf(file: string, name: string): string {
  const { headers } = JSON.parse(readFileSync(`${DIR}${file.replace(/\.json$/, '.headers.json')}`, 'utf8')) as { headers: Record<string, string> };
  return headers[name] ?? '';
}

function mustIndex(body: Uint8Array): OpenAiIndex {
  const outcome = indexResponses(body);
  if (outcome.kind !== 'indexed') throw new Error(`${outcome.reason}: ${outcome.detail}`);
  return outcome.index;
}

describe('the core on real Codex request bodies', () => {
  it('should find the six captured bodies', () => {
    // Arrange: the fixture folder.

    // Act
    const count = FILES.length;

    // Assert
    expect(count).toBe(6);
  });

  it.each(FILES)('should index %s, its tool outputs text', (file) => {
    // Arrange
    const body = load(file);

    // Act
    const index = mustIndex(body);

    // Assert
    expect(index.messages.length).toBeGreaterThanOrEqual(7);
    expect(index.toolResults.every((t) => t.textOnly)).toBe(true);
    expect(index.promptCacheKey).toBe(headerOf(file, CODEX_SESSION_HEADER));
  });

  it.each(FILES)('should round trip %s with the default policy and with every output but the last item elided', (file) => {
    // Arrange
    const body = load(file);

    // Act
    const byDefault = roundTrip(body, DEFAULT_POLICY, RESPONSES_API);
    const all = roundTrip(body, ELIDE_ALL, RESPONSES_API);

    // Assert
    expect(byDefault.plan.every((b) => b.bytes > DEFAULT_POLICY.minBytes)).toBe(true);
    expect(all.plan.length).toBe(mustIndex(body).toolResults.filter((t) => t.messageIndex !== mustIndex(body).messages.length - 1).length);
  });

  it('should give every body of the thread one conversation key, across exec resume', () => {
    // Arrange
    const bodies = FILES.map(load);

    // Act
    const keys = bodies.map((b, i) => openAiConversationKey(b, mustIndex(b), 'responses', sha256, headerOf(FILES[i]!, CODEX_SESSION_HEADER)));

    // Assert
    expect(keys[0]).toMatch(/^[0-9a-f]{64}$/);
    expect(new Set(keys).size).toBe(1);
  });

  it("should read the person's prompt, not Codex's environment context", () => {
    // Arrange
    const body = load(FILES[0]!);

    // Act
    const prompt = openAiFirstPrompt(body, mustIndex(body));

    // Assert
    expect(prompt).toBe('Please look around this project and tell me what is in it.');
  });

  it('should keep the shared prefix: an epoch latched on one body stubs every later body the same way', () => {
    // Arrange: the epoch the default policy would latch on the turn-1 body with the 20 KB read.
    const bodies = FILES.map(load);
    const latchAt = FILES.findIndex((f) => f.includes('after-big-read'));
    const frozen = planElision(bodies[latchAt]!, mustIndex(bodies[latchAt]!), { keepRecent: 1, minBytes: 1024 }, sha256).map(freezeBlock);

    // Act
    const outputs = bodies.slice(latchAt).map((b) => rewriteRequest(b, frozen, { elidedDir: ELIDED_DIR, sha256, api: RESPONSES_API }));

    // Assert: each output's bytes up to the end of its items are the next output's first bytes.
    expect(frozen.length).toBeGreaterThan(0);
    for (const outcome of outputs) expect(outcome).toMatchObject({ kind: 'applied', stubs: frozen.length });
    for (let i = 1; i < outputs.length; i++) {
      const before = outputs[i - 1]!.body;
      const itemsEnd = mustIndex(before).messagesSpan.end - 1; // without the closing bracket
      expect(bytesEqual(before.subarray(0, itemsEnd), outputs[i]!.body.subarray(0, itemsEnd))).toBe(true);
    }
  });
});
