/** Shared arbitraries and expectations for the rewrite properties. */
import fc from 'fast-check';
import { BLOCK_PARTS, type ElisionPolicy, type FrozenBlock } from '../../src/core/epoch-types.js';
import { DEFAULT_POLICY, freezeBlock, planElision, type PlannedBlock } from '../../src/core/plan-elision.js';
import { MESSAGES_API } from '../../src/core/dialects/messages.js';
import { planParts } from '../../src/core/epochs/tool-results/plan-parts.js';
import { indexTranscript } from '../../src/core/messages/transcript-index.js';
import { renderStub } from '../../src/core/stub.js';
import type { TranscriptIndex } from '../../src/core/transcript-index-types.js';
import { concatBytes, utf8 } from './bytes.js';
import { sha256 } from './sha256.js';

/** State directories named in stubs: a plain one, one that needs JSON escapes, a short one. */
export const elidedDirArb: fc.Arbitrary<string> = fc.constantFrom('/home/dev/.local/state/ctxshed/elided', '/tmp/ctx shed/ünï "q" \\ 😀/elided', '/e');

/** The default policy, or one that elides more (fewer kept, smaller blocks), to exercise more stubs. */
export const policyArb: fc.Arbitrary<ElisionPolicy> = fc.oneof(
  { weight: 2, arbitrary: fc.constant(DEFAULT_POLICY) },
  { weight: 3, arbitrary: fc.record({ keepRecent: fc.integer({ min: 0, max: 6 }), minBytes: fc.integer({ min: 40, max: 1500 }) }) },
);

/**
 * A policy with the deeper cut on (docs/rescue.md): low floors, so that the generated tool inputs'
 * strings and assistant texts are taken too, and either part or both.
 */
export const deepPolicyArb: fc.Arbitrary<ElisionPolicy> = fc.record({
  keepRecent: fc.integer({ min: 0, max: 3 }),
  minBytes: fc.integer({ min: 0, max: 1500 }),
  deep: fc.record({
    parts: fc.subarray([...BLOCK_PARTS], { minLength: 1 }),
    inputMinBytes: fc.integer({ min: 0, max: 40 }),
    textMinBytes: fc.integer({ min: 0, max: 40 }),
  }),
});

/** Which planned blocks an epoch takes (a missing mask entry means "taken"; most are). */
export const maskArb: fc.Arbitrary<boolean[]> = fc.array(
  fc.integer({ min: 0, max: 3 }).map((n) => n !== 0),
  { maxLength: 40 },
);

/** The blocks whose mask entry is not `false`. */
export function pickBlocks<T>(blocks: readonly T[], mask: readonly boolean[]): T[] {
  return blocks.filter((_, i) => mask[i] !== false);
}

/** The index of a body the generators made (they always index). */
export function indexOf(body: Uint8Array): TranscriptIndex {
  const outcome = indexTranscript(body);
  if (outcome.kind !== 'indexed') throw new Error(`generated body does not index: ${outcome.reason}: ${outcome.detail}`);
  return outcome.index;
}

/** The elision plan of a generated body: its tool results, and its parts when the policy has a deeper cut. */
export function planOf(body: Uint8Array, policy: ElisionPolicy): PlannedBlock[] {
  const index = indexOf(body);
  const results = planElision(body, index, policy, sha256);
  if (policy.deep === undefined) return results;
  return [...results, ...planParts({ body, index, policy, readSites: MESSAGES_API.partSites, readCalls: MESSAGES_API.calls }, sha256)];
}

/** The frozen record of a planned block, as an epoch stores it (a part keeps its place and fields). */
export function frozenOf(block: PlannedBlock): FrozenBlock {
  if (block.part === undefined) return freezeBlock(block);
  const { text: _text, raw: _raw, ...frozen } = block;
  return frozen;
}

/** The stub token for a block, written independently of the core: `JSON.stringify(renderStub(...))`. */
export function stubToken(block: FrozenBlock, elidedDir: string): Uint8Array {
  return utf8(JSON.stringify(renderStub(block, elidedDir)));
}

/**
 * What the rewrite must produce when exactly `applied` are stubbed: the input with each applied
 * block's content value replaced by its stub token, every other byte copied in order.
 */
export function expectedRewrite(input: Uint8Array, index: TranscriptIndex, applied: readonly FrozenBlock[], elidedDir: string): Uint8Array {
  const targets = applied.map((block) => ({ block, content: index.toolResults[block.ordinal]!.content })).sort((a, b) => a.content.start - b.content.start);
  const parts: Uint8Array[] = [];
  let from = 0;
  for (const { block, content } of targets) {
    parts.push(input.subarray(from, content.start), stubToken(block, elidedDir));
    from = content.end;
  }
  parts.push(input.subarray(from));
  return concatBytes(parts);
}

/** The elided files a plan writes: `<sha256>.txt` holds the text, `<rawSha256>.json` the raw JSON. */
export function filesOf(plans: readonly PlannedBlock[]): Map<string, Uint8Array> {
  const files = new Map<string, Uint8Array>();
  for (const block of plans) {
    files.set(`${block.sha256}.txt`, block.text);
    if (block.rawSha256 !== undefined && block.raw !== undefined) files.set(`${block.rawSha256}.json`, block.raw);
  }
  return files;
}
