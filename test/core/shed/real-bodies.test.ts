/** Shed mode on real request bodies captured from Claude Code 2.1.197 (test/fixtures/real). */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { applySpanInflate, DEFAULT_SHED_POLICY, findSpanStubs, fixedRecentBudget, freezeSpan, planShed, shedRequest, type ShedPolicy } from '../../../src/core/index.js';
import { validateMessagesRequest } from '../../support/messages-validator.js';
import { fromUtf8, mustIndex, sha256 } from './shed-bodies.js';

const DIR = new URL('../../fixtures/real/', import.meta.url);
const BODIES = fs.readdirSync(DIR).filter((name) => name.endsWith('.json')).map((name) => ({ name, body: new Uint8Array(fs.readFileSync(new URL(name, DIR))) }));
const POLICIES: ShedPolicy[] = [DEFAULT_SHED_POLICY, fixedRecentBudget(4_000), fixedRecentBudget(0)];

describe('shed mode on real Claude Code bodies', () => {
  it('should shed where there is a stale middle, and every output passes the validator, keeps the head and inflates back', () => {
    let shed = 0;
    for (const { name, body } of BODIES) {
      for (const policy of POLICIES) {
        const plan = planShed(body, [], { sha256, policy });
        if (plan.kind === 'none') {
          expect({ name, reason: plan.reason }).toMatchObject({ reason: 'too_few_messages' });
          continue;
        }
        const out = shedRequest(body, [freezeSpan(plan.span)], { spansDir: '/home/me/.local/state/ctxshed/spans', sha256 });
        expect(out.kind).toBe('shed');
        shed++;

        expect({ name, violations: validateMessagesRequest(out.body) }).toEqual({ name, violations: [] });
        const head = mustIndex(body).messages[0]!.end;
        expect(fromUtf8(out.body.subarray(0, head))).toBe(fromUtf8(body.subarray(0, head)));
        const found = findSpanStubs(out.body, mustIndex(out.body));
        expect(fromUtf8(applySpanInflate(out.body, found.map((f) => ({ found: f, span: plan.span.text }))))).toBe(fromUtf8(body));
      }
    }
    // The long main-conversation bodies (06, 07, 09, and 02/03 with a small window) shed.
    expect(shed).toBeGreaterThanOrEqual(8);
  });
});
