/**
 * The real Claude Code client (the `@anthropic-ai/claude-code` the test-only install pins, test/clients) through
 * `ctxshed rescue`, end to end, offline: see rescue-scenario.ts for the run itself.
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/state/sha256-hex.js';
import { inflateFromState } from '../../src/state/inflate-from-state.js';
import { layoutPaths } from '../../src/state/layout.js';
import { verifyState } from '../../src/state/verify-state.js';
import { CLAUDE_CLIENTS, CLIENT_FLAG, whyClientCannotRun, type ClientName } from './client-env.js';
import { CLIENT_REMINDER, sharedWithPrevious, stubsOf, toolResultsOf, withoutLineNumbers } from './request-bytes.js';
import { RECALL_TOOL_USE_ID, type Exchange, type Observations } from './rescue-scenario.js';
import { readObservations, runScenario } from './run-scenario.js';

const SCENARIO = new URL('./rescue-scenario.ts', import.meta.url).pathname;
const SCENARIO_TIMEOUT_MS = 400_000;

/** The current release, and the older one kept as the print-mode run of an earlier client. */
const CLIENTS: readonly ClientName[] = ['current', 'older'];
const whyNot = new Map(CLIENTS.map((name) => [name, whyClientCannotRun(CLAUDE_CLIENTS[name])]));
for (const [name, why] of whyNot)
  if (why !== undefined) console.warn(`real-client suite SKIPPED for Claude Code ${CLAUDE_CLIENTS[name].version}: it cannot run here (${why})`);

interface Seen extends Exchange {
  client: Buffer;
  upstream: Buffer;
}

interface WireLine {
  path: string;
  key: string | null;
  agentId?: string;
  bytesIn: number;
  bytesOut: number;
  rescued: number;
  epochs: number;
  latched?: number;
}

for (const client of CLIENTS)
  describe.skipIf(whyNot.get(client) !== undefined)(`ctxshed rescue with the real Claude Code client ${CLAUDE_CLIENTS[client].version}`, () => {
    let root = '';
    let obs: Observations;
    let seen: Seen[] = [];
    let wire: WireLine[] = [];
    const of = (kind: Exchange['kind'], run?: Exchange['run']): Seen[] => seen.filter((s) => s.kind === kind && (run === undefined || s.run === run));

    beforeAll(async () => {
      const run = await runScenario(SCENARIO, 'ctxshed-real-client-', [CLIENT_FLAG, client]);
      root = run.root;
      obs = readObservations<Observations>(run);
      const bodies = join(root, 'bodies');
      seen = obs.exchanges.map((e) => ({
        ...e,
        client: readFileSync(join(bodies, e.clientFile)),
        upstream: e.upstreamFile === undefined ? Buffer.alloc(0) : readFileSync(join(bodies, e.upstreamFile)),
      }));
      wire = readFileSync(join(obs.stateDir, 'wire.jsonl'), 'utf8')
        .split('\n')
        .filter((l) => l.length > 0)
        .map((l) => JSON.parse(l) as WireLine);
      console.info(
        `real-client suite, Claude Code ${CLAUDE_CLIENTS[client].version}: network ${obs.isolated ? 'isolated by unshare -n' : 'HTTPS_PROXY to a CONNECT-refusing hop'}; ${seen.length} requests; ` +
          `${wire.filter((l) => l.latched !== undefined).length} epochs; requests over the window ${obs.overWindow}`,
      );
    }, SCENARIO_TIMEOUT_MS);

    afterAll(() => {
      if (root !== '') rmSync(root, { recursive: true, force: true });
    });

    it('should run the whole session offline, every request reaching the upstream through ctxshed', () => {
      expect(obs.mainExit, obs.mainStderr).toBe(0);
      expect(obs.resumeExit, obs.resumeOutput).toBe(0);
      expect(obs.connectAttempts).toBe(0);
      expect(obs.strayUpstream).toBe(0);
      // Requests sent over the window (the scripted API refuses them as the real one does): 0.
      expect(obs.overWindow).toBe(0);
      expect(seen.every((s) => s.upstreamFile !== undefined)).toBe(true);
      expect(of('side').length).toBeGreaterThan(0);
      expect(of('subagent').length).toBeGreaterThan(0);
    });

    it('should forward exactly what the client sent until the first epoch', () => {
      const main = of('main', 'main');
      const first = main.findIndex((s) => stubsOf(s.upstream).length > 0);
      expect(first).toBeGreaterThan(1);
      for (const s of main.slice(0, first)) expect(s.upstream.equals(s.client)).toBe(true);
      const mainKey = wire.find((w) => w.bytesIn === main[0]!.client.length)?.key;
      const before = wire.filter((w) => w.key === mainKey && w.epochs === 0);
      expect(before.length).toBe(first);
      expect(before.every((w) => w.rescued === 0 && w.bytesIn === w.bytesOut)).toBe(true);
    });

    it('should send stubs for the frozen blocks, each naming an elided file that holds the original text', async () => {
      const state = layoutPaths(obs.stateDir);
      const withStubs = seen.filter((s) => s.method === 'POST' && stubsOf(s.upstream).length > 0);
      expect(withStubs.length).toBeGreaterThan(0);
      for (const s of withStubs) {
        for (const { stub } of stubsOf(s.upstream)) {
          const file = readFileSync(join(state.elidedDir, `${stub.sha256}.txt`));
          expect(sha256Hex(file)).toBe(stub.sha256);
          expect(file.length).toBe(stub.bytes);
        }
      }
      // Lossless, and identity where there is no stub: every forwarded body inflates to the client's.
      for (const s of seen.filter((x) => x.method === 'POST')) {
        const { body } = await inflateFromState(state, s.upstream);
        expect(Buffer.from(body).equals(s.client), `request ${s.seq}`).toBe(true);
      }
      const report = await verifyState(obs.stateDir);
      expect(report.problems).toEqual([]);
    });

    it('should keep the earlier bytes in every later request, across real turns', () => {
      const main = of('main', 'main');
      let latches = 0;
      for (let i = 1; i < main.length; i += 1) {
        const prev = main[i - 1]!;
        const next = main[i]!;
        // The client itself keeps the prefix; ctxshed must not break it.
        expect(sharedWithPrevious(prev.client, next.client).full, `client ${prev.seq}->${next.seq}`).toBe(true);
        const before = new Set(stubsOf(prev.upstream).map((f) => f.ordinal));
        const added = stubsOf(next.upstream).filter((f) => !before.has(f.ordinal));
        const shared = sharedWithPrevious(prev.upstream, next.upstream);
        if (added.length === 0) {
          expect(shared.full, `upstream ${prev.seq}->${next.seq}`).toBe(true);
        } else {
          // A latching request: the cache is re-written from the first newly frozen block on, not before.
          latches += 1;
          expect(shared.bytes, `latch at ${next.seq}`).toBeGreaterThanOrEqual(added[0]!.start);
        }
      }
      expect(latches).toBeGreaterThan(0);
      expect(latches).toBe(wire.filter((w) => w.latched !== undefined).length);
    });

    it('should let the agent Read an elided block back, intact', () => {
      const recall = obs.recall;
      expect(recall).toBeDefined();
      const original = readFileSync(recall!.path, 'utf8');
      // The tool result the client sent for that Read, in the request that answered it.
      const answer = seen.find((s) => s.kind === 'main' && s.client.includes(Buffer.from(`"tool_use_id":"${RECALL_TOOL_USE_ID}"`)));
      expect(answer).toBeDefined();
      const body = JSON.parse(answer!.client.toString('utf8')) as { messages: Array<{ content: unknown }> };
      const result = body.messages
        .flatMap((m) => (Array.isArray(m.content) ? (m.content as Array<Record<string, unknown>>) : []))
        .find((b) => b['type'] === 'tool_result' && b['tool_use_id'] === RECALL_TOOL_USE_ID);
      expect(result?.['is_error']).not.toBe(true);
      expect(typeof result?.['content']).toBe('string');
      expect(withoutLineNumbers(result!['content'] as string)).toContain(original);
      // And that text is the block the client had sent before it was frozen.
      const earlier = seen.find((s) => s.seq < recall!.seenInSeq && s.kind === 'main' && s.client.includes(Buffer.from(JSON.stringify(original))));
      expect(earlier).toBeDefined();
      expect(original).toContain(readFileSync(join(obs.projectDir, 'f1.txt'), 'utf8').split('\n')[0]);
    });

    it('should give a resumed session (claude --resume, a new ctxshed, same state) the same stubs and bytes', () => {
      const last = of('main', 'main').at(-1)!;
      const resumed = of('main', 'resume')[0]!;
      expect(sharedWithPrevious(last.client, resumed.client).full).toBe(true);
      expect(sharedWithPrevious(last.upstream, resumed.upstream).full).toBe(true);
      const sha = (b: Buffer): string[] => stubsOf(b).map((f) => `${f.ordinal}:${f.stub.sha256}`);
      expect(sha(resumed.upstream)).toEqual(sha(last.upstream));
      expect(sha(resumed.upstream).length).toBeGreaterThan(0);
    });

    it('should never rewrite the subagent or the title side call, though the main thread has epochs', () => {
      const separate = [...of('subagent'), ...of('side')];
      for (const s of separate) expect(s.upstream.equals(s.client), `request ${s.seq}`).toBe(true);
      // The subagent read f1 to f3 too: text the main thread has elided, still inline there. (Claude
      // Code 2.1.328 appends a reminder with the tokens left to each tool result, so the same file
      // read twice differs in that reminder: compare the file's text.)
      const fileText = (t: string): string => t.replace(CLIENT_REMINDER, '').trimEnd();
      const elided = stubsOf(of('main', 'main').at(-1)!.upstream).map((f) =>
        fileText(readFileSync(join(obs.stateDir, 'elided', `${f.stub.sha256}.txt`), 'utf8')),
      );
      const lastSub = [...toolResultsOf(of('subagent').at(-1)!.client).values()].map((r) => fileText(r.text));
      expect(elided.some((t) => lastSub.includes(t))).toBe(true);
      const mainKeys = new Set(wire.filter((w) => w.epochs > 0).map((w) => w.key));
      expect(mainKeys.size).toBe(1);
      const otherKeys = wire.filter((w) => w.path === '/v1/messages' && !mainKeys.has(w.key));
      expect(otherKeys.length).toBe(separate.length);
      expect(otherKeys.every((w) => w.rescued === 0 && w.epochs === 0)).toBe(true);
      expect(new Set(otherKeys.filter((w) => w.agentId !== undefined).map((w) => w.key)).size).toBe(1);
    });

    it('should exit like claude -p does without it', () => {
      expect(obs.exitCodes.map((e) => e.direct)).toEqual([0, 1]);
      for (const e of obs.exitCodes) expect(e.rescued, e.prompt).toBe(e.direct);
    });
  });
