/**
 * plan -> freeze -> rewrite -> inflate on one body, with the checks every body must pass: the
 * rewrite stubs exactly the planned blocks, changes no other byte, and inflates back to the input.
 */
import { expect } from 'vitest';
import { MESSAGES_API } from '../../src/core/dialects/messages.js';
import { applyInflate, findStubs, restoredContent } from '../../src/core/epochs/inflate.js';
import { freezeBlock, planElision, type PlannedBlock } from '../../src/core/plan-elision.js';
import { rewriteRequest } from '../../src/core/epochs/tool-results/tool-results.js';
import type { ApiDialect } from '../../src/core/dialects/dialect.js';
import type { ElisionPolicy } from '../../src/core/epoch-types.js';
import type { TranscriptIndex } from '../../src/core/transcript-index-types.js';
import { bytesEqual } from '../../src/core/block-text.js';
import { sha256 } from './bodies.js';

export const ELIDED_DIR = '/home/dev/.local/state/ctxshed/elided';

/** What one round trip did (for assertions on top of the built-in ones). */
export interface RoundTrip {
  readonly plan: readonly PlannedBlock[];
  readonly output: Uint8Array;
}

/** The index of a body that must index in `api`. */
export function mustIndexAs(api: ApiDialect, body: Uint8Array): TranscriptIndex {
  const outcome = api.index(body);
  if (outcome.kind !== 'indexed') throw new Error(`expected the body to index as ${api.name}: ${outcome.reason}: ${outcome.detail}`);
  return outcome.index;
}

/** Runs the round trip and asserts its invariants; returns the plan and the rewritten body. */
export function roundTrip(body: Uint8Array, policy: ElisionPolicy, api: ApiDialect = MESSAGES_API): RoundTrip {
  const mustIndex = (b: Uint8Array): TranscriptIndex => mustIndexAs(api, b);
  const index = mustIndex(body);
  const plan = planElision(body, index, policy, sha256);
  const outcome = rewriteRequest(body, plan.map(freezeBlock), { elidedDir: ELIDED_DIR, sha256, api });
  if (plan.length === 0) {
    expect(outcome).toMatchObject({ kind: 'passthrough', reason: 'no_epoch' });
    expect(outcome.body).toBe(body);
    return { plan, output: body };
  }
  if (outcome.kind !== 'applied') throw new Error(`expected a rewrite: ${outcome.reason}: ${outcome.detail}`);
  expect(outcome.stubs).toBe(plan.length);
  expect(outcome.skipped).toEqual([]);
  expect(outcome.bytesTaken).toBe(plan.reduce((n, b) => n + b.bytes, 0));

  // Stubs sit exactly where the plan put them, and nowhere else.
  const output = outcome.body;
  const found = findStubs(output, mustIndex(output));
  expect(found.map((f) => f.ordinal)).toEqual(plan.map((b) => b.ordinal));
  expect(found.map((f) => f.stub.sha256)).toEqual(plan.map((b) => b.sha256));

  // Every byte outside the planned content values is copied: walk both bodies segment by segment.
  let from = 0;
  let to = 0;
  for (const [k, block] of plan.entries()) {
    const content = index.toolResults[block.ordinal]!.content;
    const stub = found[k]!;
    expect(bytesEqual(body.subarray(from, content.start), output.subarray(to, stub.start))).toBe(true);
    from = content.end;
    to = stub.end;
  }
  expect(bytesEqual(body.subarray(from), output.subarray(to))).toBe(true);

  // Lossless: the files the plan would write rebuild the original byte for byte.
  const bySha = new Map(plan.map((b) => [b.sha256, b]));
  const restored = found.map((f) => {
    const block = bySha.get(f.stub.sha256)!;
    return { found: f, content: restoredContent(f.stub, block.text, block.raw) };
  });
  expect(bytesEqual(applyInflate(output, restored), body)).toBe(true);
  return { plan, output };
}
