/**
 * The real Codex CLI (0.171.0) compacting remotely through `ctxshed rescue`, offline: see
 * compact-codex-scenario.ts. With `-c model_auto_compact_token_limit=…` Codex compacts on its own,
 * against the built-in OpenAI provider with a streamed `POST /responses` whose last input item is
 * `{"type":"compaction_trigger"}`; the scripted API answers one `compaction` item and refuses any
 * it did not write, and refuses a broken pair. Skipped where Codex or its sandbox cannot run, or
 * the network cannot be isolated with `unshare -n`.
 */
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inflateFromState } from '../../src/state/inflate-from-state.js';
import { layoutPaths } from '../../src/state/layout.js';
import { verifyState } from '../../src/state/verify-state.js';
import { compactionItem } from '../support/responses-compaction.js';
import { CODEX_CLIENTS, CODEX_FLAG, whyCodexCannotRun, whyCodexSandboxCannotRun } from './codex-env.js';
import type { CompactObservations } from './compact-codex-scenario.js';
import { CANNOT_ISOLATE, type Exchange, readModelCalls, withBodies } from './codex-runs.js';
import { readObservations, runScenario } from './run-scenario.js';

const SCENARIO = new URL('./compact-codex-scenario.ts', import.meta.url).pathname;
const SCENARIO_TIMEOUT_MS = 300_000;
const why = whyCodexCannotRun(CODEX_CLIENTS.current) ?? whyCodexSandboxCannotRun();
if (why !== undefined) console.warn(`real Codex compaction suite SKIPPED: the CLI or its sandbox cannot run here (${why})`);

interface Seen extends Exchange {
  client: Buffer;
  upstream: Buffer;
  input: Array<Record<string, unknown>>;
}

interface WireLine {
  route?: string;
  status?: number;
  key?: string;
  latched?: number;
  requestClass?: string;
  refused?: string;
  /** A warm-up on the WebSocket, answered by ctxshed (docs/openai.md "WebSockets"): no model call. */
  warmup?: true;
}

describe.skipIf(why !== undefined)(`remote compaction with the real Codex CLI ${CODEX_CLIENTS.current.version} through ctxshed rescue`, () => {
  let root = '';
  let skipped = '';
  let obs: CompactObservations;
  let model: Seen[] = [];
  let wire: WireLine[] = [];
  let at = -1;

  beforeAll(async () => {
    const started = Date.now();
    const run = await runScenario(SCENARIO, 'ctxshed-real-codex-compact-', [CODEX_FLAG, 'current']);
    root = run.root;
    if (run.code === CANNOT_ISOLATE) {
      skipped = 'unshare -n is not available here';
      console.warn(`real Codex compaction suite SKIPPED: ${skipped}`);
      return;
    }
    obs = readObservations<CompactObservations>(run);
    console.log(`real Codex compaction suite: the scenario took ${Math.round((Date.now() - started) / 1000)} s`);
    model = withBodies(
      root,
      obs.exchanges.filter((e) => e.method === 'POST' && e.path.endsWith('/responses')),
    ).map((e) => ({ ...e, input: (JSON.parse(e.client.toString('utf8')) as { input: Array<Record<string, unknown>> }).input }));
    wire = readModelCalls<WireLine>(obs.stateDir);
    at = model.findIndex((s) => s.input.at(-1)?.['type'] === 'compaction_trigger');
  }, SCENARIO_TIMEOUT_MS);

  afterAll(() => {
    if (root !== '') rmSync(root, { recursive: true, force: true });
  });

  it('should compact once, with a compaction_trigger request, every request accepted by the scripted API', ({ skip }) => {
    if (skipped !== '') skip();
    expect(
      obs.exits.map((e) => e.code),
      obs.exits[0]?.stderr,
    ).toEqual([0]);
    expect(obs.strayUpstream).toBe(0);
    expect(wire.map((l) => l.status)).toEqual(model.map(() => 200));
    expect(model.filter((s) => s.input.at(-1)?.['type'] === 'compaction_trigger')).toHaveLength(1);
    console.log(`real Codex compaction suite: ${model.length} model calls, the compaction_trigger at request ${at}`);
  });

  it('should pass the trigger request through as a compaction request, and get its compaction item back intact', ({ skip }) => {
    if (skipped !== '') skip();
    expect(wire[at]).toMatchObject({ requestClass: 'compaction' });
    expect(wire[at]!.latched).toBeUndefined();
    const upstreamInput = (JSON.parse(model[at]!.upstream.toString('utf8')) as { input: Array<Record<string, unknown>> }).input;
    expect(upstreamInput.map((i) => i['type'])).toEqual(model[at]!.input.map((i) => i['type']));
    const written = compactionItem(model[at]!.upstream);
    for (const s of model.slice(at + 1)) expect(s.input.filter((i) => i['type'] === 'compaction')).toEqual([written]);
  });

  it('should latch epochs before the compaction and after it', ({ skip }) => {
    if (skipped !== '') skip();
    expect(wire.slice(0, at).some((l) => l.latched !== undefined)).toBe(true);
    expect(wire.slice(at + 1).some((l) => l.latched !== undefined)).toBe(true);
    // Codex rewrites its leading items when it compacts (new item ids, no `create_time` in their
    // metadata), so ctxshed keys what follows as a new conversation (docs/openai.md, "Remote compaction").
    expect(new Set(wire.slice(0, at + 1).map((l) => l.key)).size).toBe(1);
    expect(new Set(wire.slice(at + 1).map((l) => l.key)).size).toBe(1);
  });

  it('should give back, inflated, every body Codex sent, byte for byte', async ({ skip }) => {
    if (skipped !== '') skip();
    for (const s of model)
      expect(Buffer.from((await inflateFromState(layoutPaths(obs.stateDir), s.upstream)).body).equals(s.client), `request ${s.seq}`).toBe(true);
    expect((await verifyState(obs.stateDir)).problems).toEqual([]);
  });
});
