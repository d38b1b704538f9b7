/**
 * The burst restore in rescue mode, with the real Claude Code (2.1.332 on its default model, and
 * 2.1.197) in print mode and its DEFAULT permission mode: the model reads eight files, then brings
 * back everything the epochs elided, at once. See burst-scenario.ts for the run.
 */
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseStub } from '../../src/core/index.js';
import type { ConversationRecord, ToolResultEpoch } from '../../src/core/epoch-types.js';
import { countTokens } from '../../src/scripted/cache-pricing.js';
import { layoutPaths } from '../../src/state/layout.js';
import { listConversations } from '../../src/state/read-conversation.js';
import { verifyState } from '../../src/state/verify-state.js';
import { BURST_FILES, burstFlags, burstWindow, type BurstObservations } from './burst-scenario.js';
import { CLAUDE_CLIENTS, CLIENT_FLAG, whyClientCannotRun, type ClientName } from './client-env.js';
import { toolResultsOf } from './request-bytes.js';
import { readBody, readObservations, runScenario } from './run-scenario.js';
import { factOf } from './shed-scenario.js';

const SCENARIO = new URL('./burst-scenario.ts', import.meta.url).pathname;
const SCENARIO_TIMEOUT_MS = 200_000;
const CLIENTS: readonly ClientName[] = ['current', 'older'];
const whyNot = new Map(CLIENTS.map((name) => [name, whyClientCannotRun(CLAUDE_CLIENTS[name])]));
for (const [name, why] of whyNot)
  if (why !== undefined) console.warn(`real-client burst suite SKIPPED for Claude Code ${CLAUDE_CLIENTS[name].version}: it cannot run here (${why})`);

const FACTS = Array.from({ length: BURST_FILES }, (_, i) => factOf(i + 1));

for (const client of CLIENTS)
  describe.skipIf(whyNot.get(client) !== undefined)(`a burst restore in rescue mode with the real Claude Code ${CLAUDE_CLIENTS[client].version}`, () => {
    let root = '';
    let obs: BurstObservations;
    let bodies: Buffer[] = [];
    let epochs: ToolResultEpoch[] = [];
    /** The tool_use ids whose answers each main request sends as a stub. */
    const stubbedIds = (body: Buffer): string[] => [...toolResultsOf(body).values()].filter((r) => parseStub(r.text) !== undefined).map((r) => r.toolUseId);

    beforeAll(async () => {
      const run = await runScenario(SCENARIO, 'ctxshed-burst-client-', [CLIENT_FLAG, client]);
      root = run.root;
      obs = readObservations<BurstObservations>(run);
      bodies = obs.main.map((m) => readBody(root, m.file));
      const records: ConversationRecord[] = await listConversations(layoutPaths(obs.stateDir));
      expect(records).toHaveLength(1);
      epochs = records[0]!.epochs as ToolResultEpoch[];
      const window = Number(obs.argv[obs.argv.indexOf('--window') + 1]);
      const peak = Math.max(...bodies.map((b) => countTokens(b)));
      const back = FACTS.filter((f) => bodies.at(-1)!.includes(f)).length;
      console.info(
        `real-client burst suite, Claude Code ${obs.client}: ${epochs.length} epochs in ${bodies.length} main requests; ` +
          `${Object.keys(obs.plan.readBacks).length} elided files read back in ${obs.plan.rounds} rounds; peak ${peak} of ${window} tokens ` +
          `(${((peak / window) * 100).toFixed(1)}%); facts in the last request ${back} of ${FACTS.length}; requests over the window ${obs.overWindow}`,
      );
    }, SCENARIO_TIMEOUT_MS);

    afterAll(() => {
      if (root !== '') rmSync(root, { recursive: true, force: true });
    });

    it('should run offline in print mode and the default permission mode, nothing refused for size or permission', () => {
      expect(obs.client).toBe(CLAUDE_CLIENTS[client].version);
      expect(obs.exit, obs.stderr).toBe(0);
      expect(obs.connectAttempts).toBe(0);
      expect(obs.argv).not.toContain('--dangerously-skip-permissions');
      expect(obs.argv.some((a) => a.startsWith('--permission-mode') || a.startsWith('--allowedTools'))).toBe(false);
      expect(obs.argv.join(' ')).toContain(burstFlags(CLAUDE_CLIENTS[client]).join(' '));
      expect(JSON.parse(obs.stdout)).toMatchObject({ subtype: 'success', is_error: false, permission_denials: [] });
      // Requests sent over the window (the scripted API refuses them as the real one does): 0.
      expect(obs.overWindow).toBe(0);
      for (const body of bodies) expect(countTokens(body)).toBeLessThanOrEqual(burstWindow(CLAUDE_CLIENTS[client]));
    });

    it('should elide the earlier Reads, and let the model bring back well over the recent budget in one turn', () => {
      expect(epochs.length).toBeGreaterThanOrEqual(1);
      // Few: no epoch for each restore, as a thrashing policy would latch.
      expect(epochs.length).toBeLessThanOrEqual(3);
      const first = Object.values(obs.plan.readBacks).filter((r) => r.round === 0);
      // The recent budget is two Reads (--keep-recent 2): the first burst alone brings back more.
      expect(first.length).toBeGreaterThan(2);
      for (const [id, stub] of Object.entries(obs.plan.readBacks)) {
        const answer = toolResultsOf(bodies.at(-1)!).get(id);
        expect(answer?.isError, answer?.text.slice(0, 300)).toBe(false);
        expect(answer!.text, stub.path).toMatch(/FACT-f\d+: the courier code is/);
      }
    });

    it('should have every fact in the last request', () => {
      const last = bodies.at(-1)!;
      for (const fact of FACTS) expect(last.includes(fact), fact).toBe(true);
      // And every file's first Read is a stub there, or still the file: nothing was lost.
      expect(stubbedIds(last).length).toBe(epochs.reduce((n, e) => n + e.blocks.length, 0));
    });

    it('should elide no block twice: no epoch takes what an earlier one took, nor an answer that brought something back', () => {
      const blocks = epochs.flatMap((e) => e.blocks);
      expect(new Set(blocks.map((b) => b.toolUseId)).size).toBe(blocks.length);
      expect(new Set(blocks.map((b) => b.sha256)).size).toBe(blocks.length);
      const fileReads = new Set(Object.keys(obs.plan.fileReads));
      for (const b of blocks) expect(fileReads.has(b.toolUseId), b.toolUseId).toBe(true);
      // Request by request: a stub stays a stub, and no read-back answer ever becomes one.
      let before = new Set<string>();
      for (const [i, body] of bodies.entries()) {
        const now = stubbedIds(body);
        for (const id of before) expect(now, `request ${obs.main[i]!.seq}`).toContain(id);
        for (const id of now) expect(fileReads.has(id), `request ${obs.main[i]!.seq}: ${id}`).toBe(true);
        before = new Set(now);
      }
      // Each elided file is read back once.
      const shas = Object.values(obs.plan.readBacks).map((r) => r.sha256);
      expect(new Set(shas).size).toBe(shas.length);
      expect(new Set(shas)).toEqual(new Set(blocks.map((b) => b.sha256)));
    });

    it('should leave a state directory that verifies', async () => {
      expect((await verifyState(obs.stateDir)).problems).toEqual([]);
    });
  });
