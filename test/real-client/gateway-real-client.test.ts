/**
 * The real Claude Code through a proxy with an owner rule, restoring over the gateway
 * (docs/team.md): every fact comes back through `ctxshed mcp --gateway`, and nothing of it is in
 * the state root or a stub's path. See gateway-scenario.ts for the run.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ownerIdOf } from '../../src/proxy/owner-rule.js';
import { whyClientCannotRun } from './client-env.js';
import type { GatewayObservations } from './gateway-scenario.js';
import { readObservations, runScenario } from './run-scenario.js';

const SCENARIO = new URL('./gateway-scenario.ts', import.meta.url).pathname;
const whyNot = whyClientCannotRun();
if (whyNot !== undefined) console.warn(`real-client gateway suite SKIPPED: the Claude Code client cannot run here (${whyNot})`);

describe.skipIf(whyNot !== undefined)('Claude Code restoring over the gateway', () => {
  it('should get every elided text back through mcp --gateway, as the owner of its own credential', { timeout: 400_000 }, async () => {
    const run = await runScenario(SCENARIO, 'ctxshed-gateway-client-');
    const obs = readObservations<GatewayObservations>(run);
    expect(obs.code, obs.stderr).toBe(0);
    const owner = join(obs.stateDir, 'owners', ownerIdOf('sk-ant-test-000'));
    const elided = readdirSync(join(owner, 'elided')).filter((n) => n.endsWith('.txt'));
    expect(readdirSync(join(obs.stateDir, 'elided'))).toEqual([]);
    expect(obs.stubs.length).toBeGreaterThan(0);
    for (const stub of obs.stubs) {
      expect(stub).toContain("call ctxshed's restore tool with this sha256");
      expect(stub).not.toContain(obs.stateDir);
    }
    const ids = Object.keys(obs.restores);
    expect(ids.length).toBe(new Set(Object.values(obs.restores)).size);
    expect(new Set(Object.values(obs.restores))).toEqual(new Set(elided.map((n) => n.slice(0, 64))));
    for (const id of ids) {
      const sha = obs.restores[id]!;
      const answer = obs.results[id];
      expect(answer, `restore ${sha}`).toBeDefined();
      const [header, ...text] = answer!.split('\n');
      expect(header).toContain(`sha256 ${sha}; verified`);
      expect(text.join('\n')).toBe(readFileSync(join(owner, 'elided', `${sha}.txt`), 'utf8'));
    }
  });
});
