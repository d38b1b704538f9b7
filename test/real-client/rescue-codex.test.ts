/**
 * The real Codex CLI (the `@openai/codex` the test-only install pins, test/clients) through `ctxshed rescue`, end to end,
 * offline, in a long scripted session, in Codex's default sandbox and approval mode: see
 * rescue-codex-scenario.ts for the run itself. Skipped where Codex or its sandbox cannot run, or
 * the network cannot be isolated with `unshare -n`.
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findStubs } from '../../src/core/epochs/inflate.js';
import { indexResponses } from '../../src/core/openai/responses-index.js';
import type { OpenAiIndex } from '../../src/core/openai/openai-index.js';
import { openAiModelWindow } from '../../src/core/openai/model-windows.js';
import { inflateFromState } from '../../src/state/inflate-from-state.js';
import { layoutPaths } from '../../src/state/layout.js';
import { readConversation } from '../../src/state/read-conversation.js';
import { sha256Hex } from '../../src/state/sha256-hex.js';
import { verifyState } from '../../src/state/verify-state.js';
import { CODEX_CLIENTS, CODEX_FLAG, type CodexName, whyCodexCannotRun, whyCodexSandboxCannotRun } from './codex-env.js';
import { CANNOT_ISOLATE, type Exchange, readModelCalls, withBodies } from './codex-runs.js';
import { CONTROL_CALL_ID, CONTROL_FILE, RECALL_CALL_ID, type Observations } from './rescue-codex-scenario.js';
import { readObservations, runScenario } from './run-scenario.js';
import { blocksOf } from '../../src/core/epoch-items.js';

const SCENARIO = new URL('./rescue-codex-scenario.ts', import.meta.url).pathname;
const SCENARIO_TIMEOUT_MS = 400_000;

/** The current release, and the older one kept for one run. */
const CLIENTS: readonly CodexName[] = ['current', 'older'];
const whyNot = new Map(CLIENTS.map((name) => [name, whyCodexCannotRun(CODEX_CLIENTS[name]) ?? whyCodexSandboxCannotRun()]));
for (const [name, why] of whyNot) {
  if (why !== undefined) console.warn(`real Codex suite SKIPPED for Codex ${CODEX_CLIENTS[name].version}: the CLI or its sandbox cannot run here (${why})`);
}

interface Seen extends Exchange {
  client: Buffer;
  upstream: Buffer;
}

interface WireLine {
  route?: string;
  key: string | null;
  rescued: number;
  epochs: number;
  latched?: number;
  fullness?: number;
  refaulted?: Array<{ via: string }>;
  refused?: string;
  transport?: string;
  warmup?: true;
}

function mustIndex(body: Buffer): OpenAiIndex {
  const outcome = indexResponses(body);
  if (outcome.kind !== 'indexed') throw new Error(`${outcome.reason}: ${outcome.detail}`);
  return outcome.index;
}

describe.each(CLIENTS)('Codex %s', (client) => {
  describe.skipIf(whyNot.get(client) !== undefined)(`ctxshed rescue with the real Codex CLI ${CODEX_CLIENTS[client].version}`, () => {
    let root = '';
    let skipped = '';
    let obs: Observations;
    let seen: Seen[] = [];
    let wire: WireLine[] = [];
    const model = (): Seen[] => seen.filter((s) => s.method === 'POST' && s.path.endsWith('/responses'));

    beforeAll(async () => {
      const run = await runScenario(SCENARIO, 'ctxshed-real-codex-', [CODEX_FLAG, client]);
      root = run.root;
      if (run.code === CANNOT_ISOLATE) {
        skipped = 'unshare -n is not available here';
        console.warn(`real Codex suite SKIPPED: ${skipped}`);
        return;
      }
      obs = readObservations<Observations>(run);
      seen = withBodies(root, obs.exchanges);
      wire = readModelCalls<WireLine>(obs.stateDir);
    }, SCENARIO_TIMEOUT_MS);

    afterAll(() => {
      if (root !== '') rmSync(root, { recursive: true, force: true });
    });

    it('should run three codex exec runs offline, every request reaching the upstream through ctxshed', ({ skip }) => {
      if (skipped !== '') skip();
      expect(
        obs.exits.map((e) => e.code),
        obs.exits.map((e) => e.stderr).join('\n'),
      ).toEqual([0, 0, 0]);
      expect(model().length).toBeGreaterThanOrEqual(14);
      expect(seen.every((s) => s.upstreamFile !== undefined)).toBe(true);
      expect(obs.strayUpstream).toBe(0);
    });

    it("should send the release's default model, whose window ctxshed's table knows (no --window needed)", ({ skip }) => {
      if (skipped !== '') skip();
      const { model: expected } = CODEX_CLIENTS[client];
      for (const s of model()) expect((JSON.parse(s.client.toString('utf8')) as { model?: string }).model, `request ${s.seq}`).toBe(expected);
      // 0.171.0's default, gpt-6.2-sol, has a 500,000-token window in its bundled model list;
      // 0.169.0's, gpt-6.1-sol, 272,000 in its own list (where that release compacts).
      if (client === 'current') expect([expected, openAiModelWindow(expected)]).toEqual(['gpt-6.2-sol', 500_000]);
      else expect([expected, openAiModelWindow(expected, [0, 169, 0])]).toEqual(['gpt-6.1-sol', 272_000]);
    });

    it('should run Codex in its default mode, as users do: the read-only sandbox (bubblewrap, then seccomp), approvals never asked', ({ skip }) => {
      if (skipped !== '') skip();
      const requests = model();
      expect(requests.length).toBeGreaterThan(0);
      for (const s of requests) expect(s.turn).toMatchObject({ sandbox: 'seccomp', sandboxMode: 'read-only' });
      expect(obs.permissions).toContain('`sandbox_mode` is `read-only`');
      expect(obs.permissions).toContain('Approval policy is currently never');
    });

    it('should refuse a write into the project in that sandbox (the control), so the read-back ran in a real one', ({ skip }) => {
      if (skipped !== '') skip();
      const after = model().find((s) => s.client.includes(Buffer.from(`"call_id":"${CONTROL_CALL_ID}","output"`)));
      expect(after).toBeDefined();
      const input = (JSON.parse(after!.client.toString('utf8')) as { input: Array<{ type?: string; call_id?: string; output?: unknown }> }).input;
      const output = input.find((i) => i.type === 'function_call_output' && i.call_id === CONTROL_CALL_ID)?.output;
      expect(output).toContain('Read-only file system');
      expect(existsSync(join(obs.projectDir, CONTROL_FILE))).toBe(false);
    });

    it("should serve each process's Responses WebSocket: every model call goes over it, and Codex prints no ERROR line", ({ skip }) => {
      if (skipped !== '') skip();
      expect(obs.upgrades.map((u) => u.reply)).toEqual(Array(3).fill('HTTP/1.1 101 Switching Protocols'));
      // Each socket opens with one warm-up (`generate: false`), which ctxshed answers itself.
      expect(obs.upgrades.map((u) => u.warmups)).toEqual([1, 1, 1]);
      expect(model().length).toBeGreaterThan(0);
      expect(model().every((s) => s.ws === true)).toBe(true);
      expect(wire.every((l) => l.transport === 'websocket')).toBe(true);
      expect(wire).toHaveLength(model().length);
      for (const exit of obs.exits) expect(exit.stderr).not.toMatch(/ERROR/);
    });

    it('should keep one conversation across exec resume: one key, its epoch found again by the next ctxshed', ({ skip }) => {
      if (skipped !== '') skip();
      expect(new Set(model().map((s) => s.sessionId))).toEqual(new Set([obs.threadId]));
      expect(new Set(wire.map((l) => l.key)).size).toBe(1);
      const lastRun = model().filter((s) => s.run === 2);
      expect(lastRun.length).toBeGreaterThan(0);
      for (const s of lastRun) expect(findStubs(s.upstream, mustIndex(s.upstream)).length).toBeGreaterThan(0);
    });

    it('should send bytes unchanged before the first epoch, and stub exactly the frozen outputs after it', async ({ skip }) => {
      if (skipped !== '') skip();
      const firstLatch = wire.findIndex((l) => l.latched !== undefined);
      expect(firstLatch).toBeGreaterThan(0);
      const requests = model();
      for (let i = 0; i < firstLatch; i++) expect(requests[i]!.upstream.equals(requests[i]!.client)).toBe(true);
      const record = await readConversation(layoutPaths(obs.stateDir), String(wire[firstLatch]!.key));
      const frozen = record!.epochs.flatMap((e) => blocksOf(e).map((b) => b.ordinal)).sort((a, b) => a - b);
      const last = requests.at(-1)!.upstream;
      expect(findStubs(last, mustIndex(last)).map((f) => f.ordinal)).toEqual(frozen);
      expect(record!.firstPrompt).toBe('Read the first half of the notes.');
    });

    it("should keep the prefix stable on a socket: between latches each request's items are the next one's first bytes", ({ skip }) => {
      if (skipped !== '') skip();
      const requests = model();
      const firstLatch = wire.findIndex((l) => l.latched !== undefined);
      let checked = 0;
      for (let i = firstLatch + 1; i < requests.length; i++) {
        if (wire[i]!.latched !== undefined) continue;
        // Each run is a new process and a new socket, whose first message carries the whole history
        // in Codex's own serialization of the earlier output items, not the API's, which ctxshed
        // resent on the last socket (docs/openai.md "WebSockets"): the one place the bytes move.
        if (requests[i]!.run !== requests[i - 1]!.run) continue;
        const before = requests[i - 1]!.upstream;
        const itemsEnd = mustIndex(before).messagesSpan.end - 1;
        expect(requests[i]!.upstream.subarray(0, itemsEnd).equals(before.subarray(0, itemsEnd))).toBe(true);
        checked += 1;
      }
      expect(checked).toBeGreaterThanOrEqual(3);
    });

    it("should let the model read a stub back through Codex's own shell tool, inside the sandbox: the output holds the elided text", ({ skip }) => {
      if (skipped !== '') skip();
      expect(obs.recall).toBeDefined();
      const elided = readFileSync(obs.recall!.path);
      expect(sha256Hex(elided)).toBe(obs.recall!.sha256);
      const after = model().find((s) => s.client.includes(Buffer.from(`"call_id":"${RECALL_CALL_ID}","output"`)));
      expect(after).toBeDefined();
      const input = (JSON.parse(after!.client.toString('utf8')) as { input: Array<{ type?: string; call_id?: string; output?: unknown }> }).input;
      const output = input.find((i) => i.type === 'function_call_output' && i.call_id === RECALL_CALL_ID)?.output;
      expect(typeof output === 'string' && output.includes(elided.toString('utf8'))).toBe(true);
      expect(output).toContain('Process exited with code 0');
      expect(wire.flatMap((l) => l.refaulted ?? []).map((r) => r.via)).toEqual(['shell']);
    });

    it('should name in each pointer stub the command that produced its output: the `cat` of exec_command, the first line of exec', async ({ skip }) => {
      if (skipped !== '') skip();
      const requests = model();
      const lastClient = JSON.parse(requests.at(-1)!.client.toString('utf8')) as { input: Array<Record<string, unknown>> };
      const lastUpstream = JSON.parse(requests.at(-1)!.upstream.toString('utf8')) as { input: Array<Record<string, unknown>> };
      const record = await readConversation(layoutPaths(obs.stateDir), String(wire.find((l) => l.latched !== undefined)!.key));
      const pointers = record!.epochs.flatMap((e) => blocksOf(e)).filter((b) => b.label === 'pointer');
      expect(pointers.length).toBeGreaterThan(0);
      for (const block of pointers) {
        const call = lastClient.input.find((i) => (i['type'] === 'function_call' || i['type'] === 'custom_tool_call') && i['call_id'] === block.toolUseId)!;
        const command =
          call['type'] === 'function_call'
            ? (JSON.parse(String(call['arguments'])) as { cmd: string }).cmd
            : String(call['input'])
                .split('\n')
                .find((l) => l.trim() !== '');
        expect(command).toContain('cat ');
        expect(block).toMatchObject({ tool: call['name'], input: command });
        const stub = lastUpstream.input.find((i) => String(i['type']).endsWith('_call_output') && i['call_id'] === block.toolUseId)!['output'];
        expect(JSON.stringify(stub)).toContain(JSON.stringify(`${String(call['name'])} ${JSON.stringify(command)}`).slice(1, -1));
      }
    });

    it('should keep every body lossless: inflate gives back what Codex sent, and the state verifies', async ({ skip }) => {
      if (skipped !== '') skip();
      for (const s of model()) {
        const inflated = await inflateFromState(layoutPaths(obs.stateDir), s.upstream);
        expect(Buffer.from(inflated.body).equals(s.client)).toBe(true);
      }
      expect((await verifyState(obs.stateDir)).problems).toEqual([]);
    });
  });
});
