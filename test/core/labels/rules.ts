/** Shared setup of the rule tests: a body, its index, its tool calls and its plan. */
import { planElision, type PlannedBlock } from '../../../src/core/plan-elision.js';
import type { TranscriptIndex } from '../../../src/core/transcript-index-types.js';
import { readToolCalls, type ToolCall } from '../../../src/core/read-tool-calls.js';
import { mustIndex, sha256 } from '../bodies.js';
import { sessionBody, type Call } from './session-body.js';

/** Everything a rule looks at, for a session of calls (every result over 1 KiB is a candidate). */
export interface Session {
  readonly body: Uint8Array;
  readonly index: TranscriptIndex;
  readonly calls: Map<string, ToolCall>;
  readonly plan: PlannedBlock[];
  readonly candidates: number[];
}

/** A session whose plan keeps no recent block, so every result over 1 KiB is a candidate. */
export function session(calls: readonly Call[]): Session {
  const body = sessionBody(calls);
  const index = mustIndex(body);
  const plan = planElision(body, index, { keepRecent: 0, minBytes: 1024 }, sha256);
  return { body, index, calls: readToolCalls(body, index), plan, candidates: plan.map((b) => b.ordinal) };
}
