/**
 * The real Claude Code through a Postgres replica, restoring over the gateway through the other
 * replica (docs/team.md): every fact comes back through `ctxshed mcp --gateway`, equal to the
 * owner's text in the database, and no replica keeps an original on its disk. Skipped without
 * Postgres (except under CI). See gateway-pg-scenario.ts for the run.
 */
import { describe, expect, it } from 'vitest';
import { ownerIdOf } from '../../src/proxy/owner-rule.js';
import { postgresAvailable } from '../support/pg-cluster.js';
import { whyClientCannotRun } from './client-env.js';
import { CLIENT_KEY, type GatewayPgObservations } from './gateway-pg-scenario.js';
import { readObservations, runScenario } from './run-scenario.js';

const SCENARIO = new URL('./gateway-pg-scenario.ts', import.meta.url).pathname;
const whyNot = whyClientCannotRun();
if (whyNot !== undefined) console.warn(`real-client Postgres gateway suite SKIPPED: the Claude Code client cannot run here (${whyNot})`);

describe.skipIf(whyNot !== undefined || !postgresAvailable())('Claude Code through a Postgres replica, restoring through another', () => {
  it('should get every elided text back through mcp --gateway on replica 2, as the owner of its own credential', { timeout: 400_000 }, async () => {
    const run = await runScenario(SCENARIO, 'ctxshed-gateway-pg-client-');
    const obs = readObservations<GatewayPgObservations>(run);
    expect(obs.code, obs.stderr).toBe(0);
    expect(obs.replicas[0]).not.toBe(obs.replicas[1]);
    expect(obs.owners).toEqual([ownerIdOf(CLIENT_KEY)]);
    expect(obs.localFiles).toEqual([]);
    expect(obs.stubs.length).toBeGreaterThan(0);
    for (const stub of obs.stubs) {
      expect(stub).toContain("call ctxshed's restore tool with this sha256");
      expect(stub).not.toContain('/ctxshed-store');
    }
    const ids = Object.keys(obs.restores);
    expect(ids.length).toBe(new Set(Object.values(obs.restores)).size);
    expect(new Set(Object.values(obs.restores))).toEqual(new Set(Object.keys(obs.stored)));
    for (const id of ids) {
      const sha = obs.restores[id]!;
      const answer = obs.results[id];
      expect(answer, `restore ${sha}`).toBeDefined();
      const [header, ...text] = answer!.split('\n');
      expect(header).toContain(`sha256 ${sha}; verified`);
      expect(text.join('\n')).toBe(obs.stored[sha]);
    }
  });
});
