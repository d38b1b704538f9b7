/**
 * The burst restore with the real Claude Code in print mode and its DEFAULT permission mode: the
 * model reads eight files, then brings back everything the epochs took out, at once (rescue mode:
 * with the restore tool; shed mode: a Read of each span's `.md`). See burst-scenario.ts for the run.
 * With the working set turned off, the rescue run on 2.1.332 fails: its second epoch elides five
 * of the burst's restore answers, and the model restores 13 times.
 *
 * - Both modes, on 2.1.332 (its default model) and 2.1.197. In shed mode a span's `.md` is Read in
 *   the pages its stub names (issue 39): one Read of a 1,581-line `.md` stopped at 1,268 lines on
 *   both clients, and 2.1.332 said so only in a system message after it, so before the pages this
 *   burst brought 6 of the 8 facts back on 2.1.332 (docs/shed.md, "Reading a span back").
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseStub } from '../../src/core/stub.js';
import type { ConversationRecord, Epoch } from '../../src/core/epoch-types.js';
import { countTokens } from '../../src/scripted/cache-pricing.js';
import { layoutPaths } from '../../src/state/layout.js';
import { listConversations } from '../../src/state/read-conversation.js';
import { verifyState } from '../../src/state/verify-state.js';
import { BURST_FILES, burstFlags, windowOf, type BurstMode, type BurstObservations } from './burst-scenario.js';
import { CLAUDE_CLIENTS, CLIENT_FLAG, whyClientCannotRun, type ClientName } from './client-env.js';
import { toolResultsOf } from './request-bytes.js';
import { readBody, readObservations, runScenario } from './run-scenario.js';
import { factOf, spanStubsIn } from './shed-scenario.js';
import { blocksOf } from '../../src/core/epoch-items.js';
import { spanOf } from '../../src/core/epoch-items.js';

const SCENARIO = new URL('./burst-scenario.ts', import.meta.url).pathname;
const SCENARIO_TIMEOUT_MS = 200_000;
const RUNS: ReadonlyArray<{ client: ClientName; mode: BurstMode; skip?: string }> = [
  { client: 'current', mode: 'rescue' },
  { client: 'older', mode: 'rescue' },
  { client: 'current', mode: 'shed' },
  { client: 'older', mode: 'shed' },
];
const FACTS = Array.from({ length: BURST_FILES }, (_, i) => factOf(i + 1));

/** What a run left, read once for its tests. */
interface Loaded {
  root: string;
  obs: BurstObservations;
  /** The main thread's requests as the upstream got them, in order. */
  bodies: Buffer[];
  epochs: Epoch[];
}

async function load(client: ClientName, mode: BurstMode): Promise<Loaded> {
  const run = await runScenario(SCENARIO, 'ctxshed-burst-client-', [CLIENT_FLAG, client, '--mode', mode]);
  const obs = readObservations<BurstObservations>(run);
  const bodies = obs.main.map((m) => readBody(run.root, m.file));
  const records: ConversationRecord[] = await listConversations(layoutPaths(obs.stateDir));
  expect(records).toHaveLength(1);
  const epochs = [...records[0]!.epochs];
  const window = windowOf(obs.argv);
  const peak = Math.max(...bodies.map((b) => countTokens(b)));
  const back = FACTS.filter((f) => bodies.at(-1)!.includes(f)).length;
  console.info(
    `real-client burst suite, Claude Code ${obs.client}, ${mode} mode: ${epochs.length} epochs in ${bodies.length} main requests; ` +
      `${new Set(Object.values(obs.plan.readBacks).map((r) => r.sha256)).size} stubs read back in ${Object.keys(obs.plan.readBacks).length} calls, ${obs.plan.rounds} rounds; peak ${peak} of ${window} tokens ` +
      `(${((peak / window) * 100).toFixed(1)}%); facts in the last request ${back} of ${FACTS.length}; requests over the window ${obs.overWindow}`,
  );
  return { root: run.root, obs, bodies, epochs };
}

/** The Read pages of each span's .md, by handle, in order. */
function pagesBySpan(obs: BurstObservations): Map<string, string[]> {
  const pages = new Map<string, string[]>();
  for (const [id, r] of Object.entries(obs.plan.readBacks)) if (r.page !== undefined) pages.set(r.sha256, [...(pages.get(r.sha256) ?? []), id]);
  return pages;
}

/** The tool_use ids whose answers a rescue request sends as a stub. */
const stubbedIds = (body: Buffer): string[] => [...toolResultsOf(body).values()].filter((r) => parseStub(r.text) !== undefined).map((r) => r.toolUseId);

for (const { client, mode, skip } of RUNS) {
  const why = skip ?? whyClientCannotRun(CLAUDE_CLIENTS[client]);
  if (why !== undefined) console.warn(`real-client burst suite SKIPPED for Claude Code ${CLAUDE_CLIENTS[client].version} in ${mode} mode: ${why}`);
  describe.skipIf(why !== undefined)(`a burst restore in ${mode} mode with the real Claude Code ${CLAUDE_CLIENTS[client].version}`, () => {
    let run: Loaded;
    beforeAll(async () => {
      run = await load(client, mode);
    }, SCENARIO_TIMEOUT_MS);
    afterAll(() => {
      if (run !== undefined) rmSync(run.root, { recursive: true, force: true });
    });

    it('should run offline in print mode and the default permission mode, nothing refused for size or permission', () => {
      const { obs, bodies } = run;
      expect(obs.client).toBe(CLAUDE_CLIENTS[client].version);
      expect(obs.exit, obs.stderr).toBe(0);
      expect(obs.connectAttempts).toBe(0);
      expect(obs.argv).not.toContain('--dangerously-skip-permissions');
      expect(obs.argv.some((a) => a.startsWith('--permission-mode') || a.startsWith('--allowedTools'))).toBe(false);
      expect(obs.argv.join(' ')).toContain(burstFlags(CLAUDE_CLIENTS[client], mode).join(' '));
      expect(JSON.parse(obs.stdout)).toMatchObject({ subtype: 'success', is_error: false, permission_denials: [] });
      // Requests sent over the window (the scripted API refuses them as the real one does): 0.
      expect(obs.overWindow).toBe(0);
      for (const body of bodies) expect(countTokens(body)).toBeLessThanOrEqual(windowOf(obs.argv));
    });

    it('should take the earlier Reads out in few epochs, and answer every read-back with its text', () => {
      const { obs, bodies, epochs } = run;
      expect(epochs.length).toBeGreaterThanOrEqual(1);
      // Few: no epoch for each read-back, as a thrashing policy would latch.
      expect(epochs.length).toBeLessThanOrEqual(3);
      for (const e of epochs) expect(e.kind).toBe(mode === 'shed' ? 'span' : 'tool_results');
      // Rescue mode brings the blocks back with the restore tool, which only the working set keeps
      // from the next epoch (a Read of an elided file the block policy keeps by itself).
      const via = Object.values(obs.plan.readBacks).map((r) => r.via);
      expect(new Set(via)).toEqual(new Set([mode === 'rescue' ? 'restore' : 'read']));
      for (const [id, stub] of Object.entries(obs.plan.readBacks)) {
        const answer = toolResultsOf(bodies.at(-1)!).get(id);
        expect(answer?.isError, answer?.text.slice(0, 300)).toBe(false);
        // A page of a span's .md may hold no fact; the stub's text, all its pages together, does.
        if (stub.page === undefined) expect(answer!.text, stub.path).toMatch(/FACT-f\d+: the courier code is/);
      }
      for (const [sha, pages] of pagesBySpan(obs)) {
        const text = pages.map((id) => toolResultsOf(bodies.at(-1)!).get(id)?.text ?? '').join('\n');
        expect(text, sha).toMatch(/FACT-f\d+: the courier code is/);
        // No page stops short: each Read gave every line it asked for.
        for (const id of pages) {
          const [offset, limit] = obs.plan.readBacks[id]!.page!;
          const numbers = [...(toolResultsOf(bodies.at(-1)!).get(id)?.text ?? '').matchAll(/^(\d+)\t/gm)].map((m) => Number(m[1]));
          expect([numbers[0], numbers.at(-1)], id).toEqual([offset, offset + limit - 1]);
        }
      }
    });

    it('should have every fact in the last request', () => {
      const last = run.bodies.at(-1)!;
      for (const fact of FACTS) expect(last.includes(fact), fact).toBe(true);
    });

    it('should take nothing out twice: each stub read back once, and no answer that brought something back taken out again', () => {
      const { obs, bodies, epochs } = run;
      const taken = mode === 'rescue' ? (epochs as Epoch[]).flatMap((e) => blocksOf(e).map((b) => b.sha256)) : epochs.map((e) => spanOf(e)!.sha256);
      expect(new Set(taken).size).toBe(taken.length);
      // Each stub once (a span's .md once per page).
      const reads = Object.values(obs.plan.readBacks).map((r) => `${r.sha256} ${r.page?.join(' ') ?? ''}`);
      expect(new Set(reads).size).toBe(reads.length);
      expect(new Set(Object.values(obs.plan.readBacks).map((r) => r.sha256))).toEqual(new Set(taken));
      if (mode === 'rescue') expectRescueOnce(run);
      else {
        // No span holds a read-back's answer, and a span stub once sent stays in every later request.
        const spans = epochs.map((e) => readFileSync(join(obs.stateDir, 'spans', `${spanOf(e)!.sha256}.json`), 'utf8'));
        for (const id of Object.keys(obs.plan.readBacks)) for (const span of spans) expect(span.includes(id), id).toBe(false);
        let before: string[] = [];
        for (const body of bodies) {
          const now = spanStubsIn({ body }).map((f) => f.sha256);
          expect(now.slice(0, before.length)).toEqual(before);
          before = now;
        }
      }
    });

    it('should leave a state directory that verifies', async () => {
      expect((await verifyState(run.obs.stateDir)).problems).toEqual([]);
    });

    it.skipIf(client !== 'current')("should read every model call's request class, which rescue has the client send", () => {
      // rescue sets CLAUDE_CODE_GATEWAY_HINT_HEADERS=1 for the child: without it 2.1.332 sends none.
      const wire = readFileSync(join(run.obs.stateDir, 'wire.jsonl'), 'utf8')
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as { route?: string; requestClass?: string });
      const calls = wire.filter((r) => r.route === 'messages');
      expect(calls.length).toBeGreaterThanOrEqual(run.bodies.length);
      expect(calls.filter((r) => r.requestClass === undefined)).toEqual([]);
      expect(calls.filter((r) => r.requestClass === 'main').length).toBeGreaterThanOrEqual(run.bodies.length);
    });
  });
}

/** Rescue: only the files' first Reads are ever stubs, and a stub once sent stays one in every later request. */
function expectRescueOnce({ obs, bodies, epochs }: Loaded): void {
  const blocks = (epochs as Epoch[]).flatMap((e) => blocksOf(e));
  expect(new Set(blocks.map((b) => b.toolUseId)).size).toBe(blocks.length);
  const fileReads = new Set(Object.keys(obs.plan.fileReads));
  for (const b of blocks) expect(fileReads.has(b.toolUseId), b.toolUseId).toBe(true);
  let before = new Set<string>();
  for (const [i, body] of bodies.entries()) {
    const now = stubbedIds(body);
    for (const id of before) expect(now, `request ${obs.main[i]!.seq}`).toContain(id);
    for (const id of now) expect(fileReads.has(id), `request ${obs.main[i]!.seq}: ${id}`).toBe(true);
    before = new Set(now);
  }
  expect(stubbedIds(bodies.at(-1)!).length).toBe(blocks.length);
}
