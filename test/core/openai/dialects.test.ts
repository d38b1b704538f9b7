/** The shared plan, rewrite, inflate and self-check over the OpenAI dialects' indexes. */
import { describe, expect, it } from 'vitest';
import { CHAT_API } from '../../../src/core/dialects/chat.js';
import { DEFAULT_POLICY, freezeBlock, planElision } from '../../../src/core/plan-elision.js';
import { findStubs } from '../../../src/core/epochs/inflate.js';
import { RESPONSES_API } from '../../../src/core/dialects/responses.js';
import { rewriteRequest } from '../../../src/core/epochs/tool-results/tool-results.js';
import type { ApiDialect } from '../../../src/core/dialects/dialect.js';
import { filler, fromUtf8, sha256 } from '../bodies.js';
import { ELIDED_DIR, mustIndexAs, roundTrip } from '../round-trip.js';
import { chatBody, responsesBody } from './openai-bodies.js';

const BUILDERS: ReadonlyArray<[string, ApiDialect, (outputs: readonly unknown[], options?: { closing?: boolean }) => Uint8Array]> = [
  ['Responses', RESPONSES_API, responsesBody],
  ['chat', CHAT_API, chatBody],
];

/** Ten outputs over 1 KiB, of three shapes: a string, text parts, a string needing escapes. */
function outputs(api: ApiDialect): unknown[] {
  const part = api === RESPONSES_API ? 'input_text' : 'text';
  return Array.from({ length: 10 }, (_, i) => {
    if (i % 4 === 1)
      return [
        { type: part, text: filler(800, i) },
        { type: part, text: filler(700, i + 1) },
      ];
    if (i % 4 === 3) return `"quoted" \\ é 😀\n${filler(1500, i)}`;
    return filler(2000, i);
  });
}

describe.each(BUILDERS)('the shared core over %s bodies', (_name, api, build) => {
  it('should plan the outputs older than the 6 newest and over 1 KiB, oldest first', () => {
    // Arrange
    const body = build(outputs(api));

    // Act
    const plan = planElision(body, mustIndexAs(api, body), DEFAULT_POLICY, sha256);

    // Assert
    expect(plan.map((b) => b.ordinal)).toEqual([0, 1, 2, 3]);
    expect(plan.map((b) => b.toolUseId)).toEqual(['call_0', 'call_1', 'call_2', 'call_3']);
    expect(plan[1]?.rawSha256).toBeDefined(); // a list of parts keeps its exact JSON too
    expect(plan[0]?.rawSha256).toBeUndefined();
  });

  it('should round trip: stubs exactly where planned, every other byte copied, inflate gives the input back', () => {
    // Arrange
    const body = build(outputs(api));

    // Act
    const { plan, output } = roundTrip(body, DEFAULT_POLICY, api);

    // Assert
    expect(plan).toHaveLength(4);
    expect(output.length).toBeLessThan(body.length);
  });

  it('should never plan the last item or message, whatever the policy', () => {
    // Arrange: the newest output closes the body.
    const body = build(outputs(api), { closing: false });

    // Act
    const plan = planElision(body, mustIndexAs(api, body), { keepRecent: 0, minBytes: 0 }, sha256);

    // Assert
    expect(plan.map((b) => b.ordinal)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it('should keep in view an output whose call names the elided directory (a read-back)', () => {
    // Arrange: output 0's call reads `cat f0`; name the elided directory in that call instead.
    const body = build(outputs(api));
    const text = fromUtf8(body).replace('cat f0', `cat ${ELIDED_DIR}/abc.txt`);
    const readBack = new TextEncoder().encode(text);

    // Act
    const plan = planElision(readBack, mustIndexAs(api, readBack), DEFAULT_POLICY, sha256, { elidedDir: ELIDED_DIR });

    // Assert
    expect(plan.map((b) => b.ordinal)).toEqual([1, 2, 3]);
  });

  it('should stub through rewriteRequest with the dialect, and find the stubs again', () => {
    // Arrange
    const body = build(outputs(api));
    const frozen = planElision(body, mustIndexAs(api, body), DEFAULT_POLICY, sha256).map(freezeBlock);

    // Act
    const outcome = rewriteRequest(body, frozen, { elidedDir: ELIDED_DIR, sha256, api });

    // Assert
    expect(outcome.kind).toBe('applied');
    const found = findStubs(outcome.body, mustIndexAs(api, outcome.body));
    expect(found.map((f) => f.ordinal)).toEqual([0, 1, 2, 3]);
  });

  it('should pass the body through untouched when told it is a Messages body', () => {
    // Arrange
    const body = build(outputs(api));
    const frozen = planElision(body, mustIndexAs(api, body), DEFAULT_POLICY, sha256).map(freezeBlock);

    // Act
    const outcome = rewriteRequest(body, frozen, { elidedDir: ELIDED_DIR, sha256 });

    // Assert
    expect(outcome.kind).toBe('passthrough');
    expect(outcome.kind === 'passthrough' ? outcome.reason : '').toMatch(/^(not_messages_body|unknown_shape)$/);
    expect(outcome.body).toBe(body);
  });

  it('should skip a frozen block whose call id moved, and pass through when none is left', () => {
    // Arrange: the same outputs, but every call id renamed.
    const body = build(outputs(api));
    const frozen = planElision(body, mustIndexAs(api, body), DEFAULT_POLICY, sha256).map(freezeBlock);
    const renamed = new TextEncoder().encode(fromUtf8(body).replace(/"call_(\d+)"/g, '"CALL_$1"'));

    // Act
    const outcome = rewriteRequest(renamed, frozen, { elidedDir: ELIDED_DIR, sha256, api });

    // Assert
    expect(outcome).toMatchObject({ kind: 'passthrough', reason: 'epoch_mismatch' });
    expect(outcome.skipped.map((s) => s.reason)).toEqual(['id_mismatch', 'id_mismatch', 'id_mismatch', 'id_mismatch']);
  });
});
