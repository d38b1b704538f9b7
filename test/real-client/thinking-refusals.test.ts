/**
 * Claude Code 2.1.328 on claude-opus-5-5 (it checks the prefix of every thinking block sent back)
 * through ctxshed, against the scripted API enforcing preserved thinking: does anything ctxshed
 * sends make the API refuse what the client alone would have had accepted? See thinking-scenario.ts.
 *
 * Before ctxshed removed the thinking blocks a latch invalidates, it did: measured 2026-12-01, the
 * rescue run latched 10 epochs and got 10 refusals in 26 model calls (the client resends each
 * without its thinking blocks), and the shed run latched nothing (`preserved_thinking`).
 */
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { whyClientCannotRun } from './client-env.js';
import { readObservations, runScenario } from './run-scenario.js';
import { PROMPTS, type ThinkingObservations } from './thinking-scenario.js';

const SCENARIO = new URL('./thinking-scenario.ts', import.meta.url).pathname;
const SCENARIO_TIMEOUT_MS = 500_000;

const whyNot = whyClientCannotRun();
if (whyNot !== undefined) console.warn(`real-client thinking suite SKIPPED: the Claude Code client cannot run here (${whyNot})`);

describe.skipIf(whyNot !== undefined)('Claude Code 2.1.328 on a prefix-check model through ctxshed, preserved thinking enforced', () => {
  let root = '';
  let obs: ThinkingObservations;

  beforeAll(async () => {
    const run = await runScenario(SCENARIO, 'ctxshed-thinking-client-');
    root = run.root;
    obs = readObservations<ThinkingObservations>(run);
    for (const [name, r] of Object.entries(obs.runs)) {
      console.info(
        `real-client thinking suite: ${name}: ${r.epochs} epoch(s), ${r.refusals} refusal(s) in ${r.mainCalls} model calls, ${r.thinkingSent} thinking blocks sent back`,
      );
    }
  }, SCENARIO_TIMEOUT_MS);

  afterAll(() => {
    if (root !== '') rmSync(root, { recursive: true, force: true });
  });

  it('should finish every run, and the client alone should send its thinking back and be refused nothing (the control)', () => {
    expect(obs.model).toBe('claude-opus-5-5');
    for (const [name, r] of Object.entries(obs.runs))
      expect({ name, exit: r.exit, results: r.results }, r.stderr).toEqual({ name, exit: 0, results: PROMPTS.length });
    const { control } = obs.runs;
    expect(control.thinkingSent).toBeGreaterThan(control.mainCalls);
    expect(control.refusals).toBe(0);
    expect(control.epochs).toBe(0);
  });

  it('should latch several rescue epochs', () => {
    expect(obs.runs.rescue.epochs).toBeGreaterThanOrEqual(2);
  });

  it('should be refused nothing through ctxshed rescue, as the client alone', () => {
    expect(obs.runs.rescue.refusalMessages).toEqual([]);
    expect(obs.runs.rescue.refusals).toBe(0);
  });

  it('should latch several shed epochs and be refused nothing through ctxshed rescue --mode shed', () => {
    expect(obs.runs.shed.epochs).toBeGreaterThanOrEqual(2);
    expect(obs.runs.shed.refusalMessages).toEqual([]);
    expect(obs.runs.shed.refusals).toBe(0);
  });
});
