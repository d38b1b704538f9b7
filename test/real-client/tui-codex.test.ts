/**
 * The interactive Codex TUI (the `@openai/codex` the test-only install pins, test/clients) through `ctxshed rescue -- codex`,
 * in Codex's default sandbox and approval mode, on a pseudo-terminal (tmux), offline: an epoch
 * latches, the model reads a stub back with Codex's shell tool and no approval prompt shows for it,
 * while a command that asks to leave the sandbox (the control) does stop at the prompt. See
 * tui-codex-scenario.ts. Skipped where Codex, its sandbox or tmux cannot run, or `unshare -n` is
 * unavailable.
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findStubs } from '../../src/core/epochs/inflate.js';
import { indexResponses } from '../../src/core/openai/responses-index.js';
import type { OpenAiIndex } from '../../src/core/openai/openai-index.js';
import { layoutPaths } from '../../src/state/layout.js';
import { readConversation } from '../../src/state/read-conversation.js';
import { sha256Hex } from '../../src/state/sha256-hex.js';
import { verifyState } from '../../src/state/verify-state.js';
import { CODEX_GRANT_LINE } from '../../src/cli/codex-target.js';
import { permissionsInstructionsOf, whyCodexCannotRun, whyCodexSandboxCannotRun } from './codex-env.js';
import { CANNOT_ISOLATE } from './codex-runs.js';
import { APPROVAL_TEXT, CONTROL_CALL_ID, DONE_TEXT, RECALL_CALL_ID, type CodexTuiObservations } from './tui-codex-scenario.js';
import { tmuxVersion } from './tui-scenario.js';
import { readBody, readObservations, runScenario } from './run-scenario.js';
import { blocksOf } from '../../src/core/epoch-items.js';

const SCENARIO = new URL('./tui-codex-scenario.ts', import.meta.url).pathname;
const SCENARIO_TIMEOUT_MS = 240_000;

const whyNot = whyCodexCannotRun() ?? whyCodexSandboxCannotRun() ?? (tmuxVersion() === undefined ? 'tmux is not installed' : undefined);
if (whyNot !== undefined) console.warn(`real Codex TUI suite SKIPPED: ${whyNot}`);

interface Call {
  readonly body: Buffer;
  readonly threadSource?: string;
  readonly sandbox?: string;
  readonly sandboxMode?: string;
}

interface WireLine {
  readonly route?: string;
  readonly key: string | null;
  readonly latched?: number;
  readonly refaulted?: ReadonlyArray<{ readonly via: string }>;
  readonly refused?: string;
  readonly transport?: string;
  readonly warmup?: true;
}

function wireOf(stateDir: string): WireLine[] {
  return (
    readFileSync(join(stateDir, 'wire.jsonl'), 'utf8')
      .split('\n')
      .filter((l) => l.length > 0)
      .map((l) => JSON.parse(l) as WireLine)
      // Requests only: not notes, not upgrades ctxshed refused (`refused`), not the warm-ups it answered itself.
      .filter((l) => l.route !== undefined && l.refused === undefined && l.warmup === undefined)
  );
}

function mustIndex(body: Buffer): OpenAiIndex {
  const outcome = indexResponses(body);
  if (outcome.kind !== 'indexed') throw new Error(`${outcome.reason}: ${outcome.detail}`);
  return outcome.index;
}

function outputOf(body: Buffer, callId: string): string | undefined {
  const input = (JSON.parse(body.toString('utf8')) as { input: Array<{ type?: string; call_id?: string; output?: unknown }> }).input;
  const output = input.find((i) => i.type === 'function_call_output' && i.call_id === callId)?.output;
  return typeof output === 'string' ? output : undefined;
}

describe.skipIf(whyNot !== undefined)('the interactive Codex TUI through ctxshed rescue', () => {
  let root = '';
  let skipped = '';
  let obs: CodexTuiObservations;
  let main: Call[] = [];
  let titles: Call[] = [];

  beforeAll(async () => {
    const run = await runScenario(SCENARIO, 'ctxshed-codex-tui-');
    root = run.root;
    if (run.code === CANNOT_ISOLATE) {
      skipped = 'unshare -n is not available here';
      console.warn(`real Codex TUI suite SKIPPED: ${skipped}`);
      return;
    }
    obs = readObservations<CodexTuiObservations>(run);
    const calls: Call[] = obs.calls.map((c) => ({ body: readBody(root, c.file), ...c.turn }));
    main = calls.filter((c) => c.threadSource === 'user');
    titles = calls.filter((c) => c.threadSource === 'thread_title');
  }, SCENARIO_TIMEOUT_MS);

  afterAll(() => {
    if (root !== '') rmSync(root, { recursive: true, force: true, maxRetries: 5 });
  });

  it('should run the TUI in its default mode: workspace-write sandbox (bubblewrap, then seccomp), approvals asked on request', ({ skip }) => {
    if (skipped !== '') skip();
    expect(obs.isolated).toBe(true);
    expect(obs.ready).toContain('? for shortcuts');
    expect(main.length).toBeGreaterThanOrEqual(6);
    for (const c of main) expect(c).toMatchObject({ sandbox: 'seccomp', sandboxMode: 'workspace-write' });
    const permissions = permissionsInstructionsOf(main[0]!.body);
    expect(permissions).toContain('`sandbox_mode` is `workspace-write`');
    expect(permissions).toContain('require_escalated');
    // The TUI's side call that names the thread runs read-only, as a conversation of its own.
    expect(titles.length).toBeGreaterThan(0);
    for (const c of titles) expect(c.sandboxMode).toBe('read-only');
  });

  it('should make every model call over the Responses WebSocket ctxshed serves, with no ERROR on the screen', ({ skip }) => {
    if (skipped !== '') skip();
    const wire = wireOf(obs.stateDir);
    expect(wire.length).toBe(main.length + titles.length);
    expect(wire.every((l) => l.transport === 'websocket')).toBe(true);
    for (const screen of [obs.ready, obs.atApproval, obs.final, obs.closing]) expect(screen).not.toMatch(/ERROR|Responses WebSocket/);
  });

  it('should latch an epoch in the TUI session: the last request carries exactly the frozen outputs as stubs', async ({ skip }) => {
    if (skipped !== '') skip();
    const wire = wireOf(obs.stateDir);
    const latched = wire.filter((l) => l.latched !== undefined);
    expect(latched.length).toBeGreaterThanOrEqual(1);
    const record = await readConversation(layoutPaths(obs.stateDir), String(latched[0]!.key));
    const frozen = record!.epochs.flatMap((e) => blocksOf(e).map((b) => b.ordinal)).sort((a, b) => a - b);
    const last = main.at(-1)!.body;
    expect(frozen.length).toBeGreaterThan(0);
    expect(findStubs(last, mustIndex(last)).map((f) => f.ordinal)).toEqual(frozen);
    expect((await verifyState(obs.stateDir)).problems).toEqual([]);
  });

  it("should keep the prefix: while the stubs stay the same, each request's items are the next one's first bytes", ({ skip }) => {
    if (skipped !== '') skip();
    let checked = 0;
    let withStubs = 0;
    for (let i = 1; i < main.length; i++) {
      const before = main[i - 1]!.body;
      const after = main[i]!.body;
      const stubsBefore = findStubs(before, mustIndex(before)).map((f) => f.ordinal);
      const stubsAfter = findStubs(after, mustIndex(after)).map((f) => f.ordinal);
      if (JSON.stringify(stubsBefore) !== JSON.stringify(stubsAfter)) continue; // an epoch latched here
      const itemsEnd = mustIndex(before).messagesSpan.end - 1;
      expect(after.subarray(0, itemsEnd).equals(before.subarray(0, itemsEnd)), `request ${i}`).toBe(true);
      checked += 1;
      if (stubsAfter.length > 0) withStubs += 1;
    }
    expect(checked).toBeGreaterThanOrEqual(3);
    expect(withStubs).toBeGreaterThanOrEqual(1);
  });

  it("should read a stub back through Codex's shell tool with no approval prompt: the output holds the elided text", ({ skip }) => {
    if (skipped !== '') skip();
    expect(obs.recall).toBeDefined();
    const elided = readFileSync(obs.recall!.path);
    expect(sha256Hex(elided)).toBe(obs.recall!.sha256);
    const carried = main.find((c) => outputOf(c.body, RECALL_CALL_ID) !== undefined);
    expect(carried).toBeDefined();
    const output = outputOf(carried!.body, RECALL_CALL_ID)!;
    expect(output).toContain(elided.toString('utf8'));
    expect(output).toContain('Process exited with code 0');
    // Every approval prompt the screen showed was the control's, none the read-back's.
    expect(obs.approvals.length).toBeGreaterThanOrEqual(1);
    // (Above a prompt the screen lists what ran already, the read-back among it: look at the box.)
    for (const s of obs.approvals) {
      const box = s.slice(s.indexOf(APPROVAL_TEXT));
      expect(box).toContain(`$ touch ${obs.controlFile}`);
      expect(box).not.toContain(obs.recall!.sha256);
    }
    // The wire log counts the read-back once, as a refault through the shell.
    expect(
      wireOf(obs.stateDir)
        .flatMap((l) => l.refaulted ?? [])
        .map((r) => r.via),
    ).toEqual(['shell']);
    // The screen shows the read-back among what ran, before the control's prompt.
    expect(obs.atApproval.slice(0, obs.atApproval.indexOf(APPROVAL_TEXT))).toContain(`${obs.recall!.sha256}.txt`);
  });

  it("should stop at Codex's approval prompt for a command that asks to leave the sandbox (the control), and not run it once declined", ({ skip }) => {
    if (skipped !== '') skip();
    expect(obs.atApproval).toContain(APPROVAL_TEXT);
    expect(obs.atApproval).toContain(`$ touch ${obs.controlFile}`);
    expect(existsSync(obs.controlFile)).toBe(false);
    expect(main.some((c) => c.body.includes(Buffer.from(`"call_id":"${CONTROL_CALL_ID}"`)))).toBe(true);
  });

  it('should go on after the decline, then end with Ctrl-C as a person would', ({ skip }) => {
    if (skipped !== '') skip();
    expect(obs.final).toContain(DONE_TEXT);
    expect(obs.exited).toBe(true);
    expect(obs.closing).toContain('ctxshed: rescue on at');
    // ctxshed wraps its banner at words to 80 columns, indenting what follows: read it as one line.
    const flat = (text: string): string => text.replace(/\s+/g, ' ');
    expect(flat(obs.closing)).toContain(flat(CODEX_GRANT_LINE));
  });

  it("should show nothing of ctxshed's on any screen after its banner, through the whole session", ({ skip }) => {
    if (skipped !== '') skip();
    expect(obs.stray).toEqual([]);
  });
});
