/** Shed mode on real request bodies captured from Claude Code 2.1.197 (test/fixtures/real). */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { applyInflate } from '../../../src/core/epochs/inflate.js';
import { DEFAULT_SHED_POLICY, fixedRecentBudget, type ShedPolicy } from '../../../src/core/shed/shed-types.js';
import { findSpanStubs } from '../../../src/core/epochs/spans/find-span-stubs.js';
import { freezeSpan, planShed } from '../../../src/core/shed/plan-span.js';
import { applyEpochs } from '../../../src/core/epochs/apply.js';
import { SPANS } from '../../../src/core/epochs/spans/spans.js';
import { readMessagesFacts } from '../../../src/core/shed/message-facts.js';
import { validateMessagesRequest } from '../../support/messages-validator.js';
import { fromUtf8, mustIndex, sha256 } from './shed-bodies.js';
// The kinds' registry names the folders whose files are stored texts (core/stored-files.ts); the core's entry loads it.
import '../../../src/core/epochs/kind-info.js';

const DIR = new URL('../../fixtures/real/', import.meta.url);
const BODIES = fs
  .readdirSync(DIR)
  .filter((name) => name.endsWith('.json'))
  .map((name) => ({ name, body: new Uint8Array(fs.readFileSync(new URL(name, DIR))) }));
const POLICIES: ShedPolicy[] = [DEFAULT_SHED_POLICY, fixedRecentBudget(4_000), fixedRecentBudget(0)];

describe('shed mode on real Claude Code bodies', () => {
  it('should shed where there is a stale middle, and every output passes the validator, keeps the head and inflates back', () => {
    let shed = 0;
    for (const { name, body } of BODIES) {
      for (const policy of POLICIES) {
        const plan = planShed(body, [], { readFacts: readMessagesFacts, sha256, policy });
        if (plan.kind === 'none') {
          expect({ name, reason: plan.reason }).toMatchObject({ reason: 'too_few_messages' });
          continue;
        }
        const out = applyEpochs(SPANS, body, [freezeSpan(plan.span)], { spansDir: '/home/me/.local/state/ctxshed/spans', sha256 });
        expect(out.kind).toBe('applied');
        shed++;

        expect({ name, violations: validateMessagesRequest(out.body) }).toEqual({ name, violations: [] });
        const head = mustIndex(body).messages[0]!.end;
        expect(fromUtf8(out.body.subarray(0, head))).toBe(fromUtf8(body.subarray(0, head)));
        const found = findSpanStubs(out.body, mustIndex(out.body));
        expect(
          fromUtf8(
            applyInflate(
              out.body,
              found.map((f) => ({ found: f, content: plan.span.text })),
            ),
          ),
        ).toBe(fromUtf8(body));
      }
    }
    // The long main-conversation bodies (06, 07, 09, and 02/03 with a small window) shed.
    expect(shed).toBeGreaterThanOrEqual(8);
  });
});

describe('shed mode on a real body with the client\'s role "system" message', () => {
  it("should carry the system message that announces ctxshed's restore tool into the stub, and the output passes the validator", () => {
    // Claude Code 2.1.328 sends [user, system, ...]: its system message holds the environment, the
    // skills and the deferred tools, ctxshed's own among them. Spliced into a 2.1.197 body after
    // its first message, as the client's JSON.stringify would write it.
    const real = BODIES.find((b) => b.name === '09-main-last.json')!.body;
    const index = mustIndex(real);
    const system = {
      role: 'system',
      content: [
        { type: 'text', text: '# Environment\nWorking directory: /tmp/ctxshed-capture/project\nPlatform: linux' },
        { type: 'text', text: 'The following deferred tools are available via ToolSearch:\nmcp__ctxshed__restore\nmcp__ctxshed__spans' },
      ],
    };
    const at = index.messages[0]!.end;
    const body = new Uint8Array([...real.subarray(0, at), ...new TextEncoder().encode(`,${JSON.stringify(system)}`), ...real.subarray(at)]);
    expect(validateMessagesRequest(body)).toEqual([]);

    const plan = planShed(body, [], { readFacts: readMessagesFacts, sha256, policy: fixedRecentBudget(4_000) });

    if (plan.kind !== 'planned') throw new Error(plan.reason);
    expect(plan.span.first).toBe(1);
    expect(plan.span.notices).toEqual(system.content.map((b) => b.text));
    const out = applyEpochs(SPANS, body, [freezeSpan(plan.span)], { spansDir: '/home/me/.local/state/ctxshed/spans', sha256 });
    if (out.kind !== 'applied') throw new Error(out.reason);
    expect(validateMessagesRequest(out.body)).toEqual([]);
    expect(fromUtf8(out.body)).toContain(JSON.stringify(system.content[1]!.text).slice(1, -1));
    const found = findSpanStubs(out.body, mustIndex(out.body));
    expect(
      fromUtf8(
        applyInflate(
          out.body,
          found.map((f) => ({ found: f, content: plan.span.text })),
        ),
      ),
    ).toBe(fromUtf8(body));
  });
});
