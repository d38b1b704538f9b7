/**
 * Claude Code in its DEFAULT permission mode through `ctxshed rescue`, with no grant given by
 * hand: the agent reads every elided block back, restores it over MCP, a sealed block is refused,
 * and the grant leaves the user's own arguments their meaning. See grant-scenario.ts for the runs.
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inflateFromState } from '../../src/state/inflate-from-state.js';
import { layoutPaths } from '../../src/state/layout.js';
import { sha256Hex } from '../../src/state/sha256-hex.js';
import { locateStoredFile } from '../../src/state/stored-file.js';
import { verifyState } from '../../src/state/verify-state.js';
import { whyClientCannotRun } from './client-env.js';
import { PROMPTS, type GrantObservations, type RunObservation } from './grant-scenario.js';
import { toolResultsOf, withoutLineNumbers, type SentToolResult } from './request-bytes.js';
import { readBody, readObservations, runScenario } from './run-scenario.js';
import { bannerLinesOf } from '../support/banner-lines.js';

const SCENARIO = new URL('./grant-scenario.ts', import.meta.url).pathname;
const SCENARIO_TIMEOUT_MS = 400_000;
/** The reminders Claude Code appends to a tool result (after trimming its trailing whitespace). */
const CLIENT_REMINDER = /(?:\n\n<system-reminder>\n(?:(?!<\/system-reminder>)[\s\S])*<\/system-reminder>)+$/;

const whyNot = whyClientCannotRun();
if (whyNot !== undefined) console.warn(`real-client grant suite SKIPPED: the Claude Code client cannot run here (${whyNot})`);

/** Read's output is exactly `stored`, line numbers aside (and a reminder the client appended, if it did). */
function expectFileText(readOutput: string, stored: string): void {
  const text = withoutLineNumbers(readOutput);
  if (text === stored) return;
  // The client sometimes appends a reminder of its own to a tool result, trimming the result's
  // trailing whitespace first; everything before it is the file.
  // (The stored text may end in a reminder of its own, from when it was first a tool result.)
  const cut = text.replace(CLIENT_REMINDER, '');
  expect(cut.length, text.slice(-300)).toBeLessThan(text.length);
  expect(cut.trimEnd()).toBe(stored.replace(CLIENT_REMINDER, '').trimEnd());
}

interface Sent {
  /** What the client sent, rebuilt from what reached the upstream and the state directory (lossless). */
  client: Buffer;
  beta: string;
}

describe.skipIf(whyNot !== undefined)('Claude Code in its default permission mode through ctxshed rescue', () => {
  let root = '';
  let obs: GrantObservations;
  const sent = new Map<string, Sent[]>();
  const state = (): ReturnType<typeof layoutPaths> => layoutPaths(obs.stateDir);
  /** The client's answer to tool call `id` in run `name`: from the first request that carries it. */
  const answer = (name: string, id: string): SentToolResult | undefined => {
    for (const s of sent.get(name) ?? []) {
      const found = toolResultsOf(s.client).get(id);
      if (found !== undefined) return found;
    }
    return undefined;
  };
  const resultOf = (r: RunObservation): { permission_denials?: unknown[]; session_id?: string } =>
    JSON.parse(r.stdout) as { permission_denials?: unknown[]; session_id?: string };
  const storedText = async (sha: string): Promise<string> => readFileSync((await locateStoredFile(state(), sha, 'txt'))!.path, 'utf8');

  beforeAll(async () => {
    const run = await runScenario(SCENARIO, 'ctxshed-grant-client-');
    root = run.root;
    obs = readObservations<GrantObservations>(run);
    for (const [name, r] of Object.entries(obs.runs)) {
      const bodies: Sent[] = [];
      for (const q of r.requests.filter((x) => x.kind === 'main')) {
        const upstream = readBody(root, q.file);
        bodies.push({ client: Buffer.from((await inflateFromState(state(), upstream)).body), beta: q.beta });
      }
      sent.set(name, bodies);
    }
    console.info(
      `real-client grant suite: network ${obs.isolated ? 'isolated by unshare -n' : 'HTTPS_PROXY to a CONNECT-refusing hop'}; ${Object.keys(obs.runs).length} client runs`,
    );
  }, SCENARIO_TIMEOUT_MS);

  afterAll(() => {
    if (root !== '') rmSync(root, { recursive: true, force: true });
  });

  it('should run every client run offline, in default permission mode, with no grant or bypass given by hand', () => {
    expect(obs.connectAttempts).toBe(0);
    for (const r of Object.values(obs.runs)) {
      expect({ run: r.name, code: r.code }).toEqual({ run: r.name, code: 0 });
      expect(r.argv).not.toContain('--dangerously-skip-permissions');
      expect(r.argv.some((a) => a.startsWith('--permission-mode'))).toBe(false);
    }
    const readback = obs.runs['readback']!;
    expect(readback.argv.some((a) => a.includes('elided'))).toBe(false);
    expect(bannerLinesOf(readback.stderr).join('\n')).toContain('ctxshed: Claude Code (the claude executable) may read');
  });

  it('should Read back every elided block it is shown, without a prompt, and get its original text', async () => {
    const reads = Object.entries(obs.plan.reads);
    expect(reads.length).toBeGreaterThanOrEqual(3);
    expect(resultOf(obs.runs['readback']!).permission_denials).toEqual([]);
    const fileTexts = Object.keys(obs.plan.fileReads).map((id) => answer('readback', id)!.text);
    for (const [id, stub] of reads) {
      const result = answer('readback', id);
      expect(result, id).toBeDefined();
      expect(result!.isError, result!.text.slice(0, 200)).toBe(false);
      const stored = await storedText(stub.sha256);
      expect(sha256Hex(Buffer.from(stored))).toBe(stub.sha256);
      expectFileText(result!.text, stored);
      // The very text the client had sent as that tool result, before the epoch froze it.
      expect(fileTexts).toContain(stored);
    }
  });

  it('should restore every block over MCP (loaded by ToolSearch, never prompting): a verified header, then the text verbatim, whole or its first page with why it stops', async () => {
    const search = answer('readback', obs.plan.toolSearchId!);
    expect(search?.content).toEqual([
      { type: 'tool_reference', tool_name: 'mcp__ctxshed__restore' },
      { type: 'tool_reference', tool_name: 'mcp__ctxshed__spans' },
    ]);
    const restores = Object.entries(obs.plan.restores);
    expect(restores.length).toBe(Object.keys(obs.plan.reads).length);
    for (const [id, stub] of restores) {
      const result = answer('readback', id)!;
      expect(result.isError, result.text.slice(0, 200)).toBe(false);
      const [header, ...rest] = result.text.split('\n');
      expect(header).toMatch(new RegExp(`^\\[ctxshed restore: \\d+ bytes, sha256 ${stub.sha256}; verified: `));
      // The first page, verbatim: the whole text, or (the window being small here) as much as half
      // the room the window had left, the header saying why it stops (src/mcp/restore-why.ts).
      const stored = await storedText(stub.sha256);
      const page = rest.join('\n');
      expect(page.length).toBeGreaterThan(0);
      expect(stored.startsWith(page)).toBe(true);
      if (page !== stored) expect(header).toMatch(/It stops there/);
    }
    const spans = answer('readback', obs.plan.spansId!)!.text;
    for (const [, stub] of restores) expect(spans).toContain(stub.sha256);
  });

  it('should refuse a sealed block: restore says it is sealed, and a Read of its stub path finds no file', async () => {
    const sealed = obs.plan.sealed!;
    expect(obs.sealOutput).toMatch(/^0 sealed: /);
    const read = answer('readback', sealed.readId)!;
    expect(read.isError).toBe(true);
    expect(read.text).toMatch(/^File does not exist/);
    const restore = answer('readback', sealed.restoreId)!;
    expect(restore.isError).toBe(true);
    expect(restore.text).toContain(`block ${sealed.stub.sha256} is sealed`);
    expect(restore.text).not.toContain((await storedText(sealed.stub.sha256)).slice(0, 40));
    expect((await locateStoredFile(state(), sealed.stub.sha256, 'txt'))?.where).toBe('sealed');
    expect((await verifyState(obs.stateDir)).problems).toEqual([]);
  });

  it('should be refused the same Read with --no-grant (the control: the grant is what lets it through)', () => {
    const r = resultOf(obs.runs['nogrant']!);
    expect(r.permission_denials).toEqual([expect.objectContaining({ tool_name: 'Read', tool_use_id: 'toolu_01ProbeRead' })]);
    expect(answer('nogrant', 'toolu_01ProbeRead')).toMatchObject({ isError: true, text: expect.stringContaining("but you haven't granted it yet") });
    expect(obs.runs['nogrant']!.stderr).toContain('ctxshed: no read grant (--no-grant)');
  });

  it("should keep the meaning of the user's own arguments: a prompt, their variadic --allowedTools, `--`, --resume", async () => {
    const probe = await storedText(obs.probe.sha256);
    const lastPrompt = (name: string): string => {
      const body = JSON.parse(sent.get(name)![0]!.client.toString('utf8')) as { messages: Array<{ role: string; content: unknown }> };
      const users = body.messages
        .filter((m) => m.role === 'user')
        .map((m) => (typeof m.content === 'string' ? m.content : (m.content as Array<{ text?: string }>).map((c) => c.text ?? '').join('')));
      return users.join('\n');
    };
    for (const name of ['prompt', 'dashdash', 'resume']) {
      expect(resultOf(obs.runs[name]!).permission_denials, name).toEqual([]);
      const read = answer(name, 'toolu_01ProbeRead')!;
      expect(read.isError, name).toBe(false);
      expectFileText(read.text, probe);
    }
    expect(lastPrompt('prompt').endsWith(PROMPTS.prompt)).toBe(true);
    expect(answer('prompt', 'toolu_01UserRule')).toMatchObject({ isError: false });
    expect(existsSync(join(obs.projectDir, 'made-by-the-users-rule'))).toBe(true);
    expect(lastPrompt('dashdash').endsWith(PROMPTS.dashdash)).toBe(true);
    // A prompt right after the grant's words, then -p --resume ID: it still resumes, the earlier
    // session's prompt first, then the new one.
    const resumed = lastPrompt('resume');
    expect(resumed.indexOf(PROMPTS.prompt)).toBeGreaterThan(-1);
    expect(resumed.endsWith(PROMPTS.resume)).toBe(true);
    expect(resultOf(obs.runs['resume']!).session_id).toBe(resultOf(obs.runs['prompt']!).session_id);
    for (const name of ['version', 'mcp-list']) expect(obs.runs[`${name}-rescue`]!.stdout, name).toBe(obs.runs[`${name}-direct`]!.stdout);
  });

  it("should send the same deferred-tool requests through rescue as with ENABLE_TOOL_SEARCH=true and serve's flags set by hand", () => {
    const shape = (name: string): unknown[] =>
      sent.get(name)!.map((s) => {
        const body = JSON.parse(s.client.toString('utf8')) as { tools: Array<{ name: string; defer_loading?: boolean }> };
        const refs = [...toolResultsOf(s.client).values()].flatMap((r) =>
          Array.isArray(r.content)
            ? (r.content as Array<{ type: string; tool_name?: string }>).filter((c) => c.type === 'tool_reference').map((c) => c.tool_name)
            : [],
        );
        return { tools: body.tools.map((t) => [t.name, t.defer_loading === true]), toolSearchBeta: s.beta.includes('advanced-tool-use-2025-11-20'), refs };
      });
    const rescued = shape('search-rescue');
    expect(rescued).toEqual(shape('search-serve'));
    expect(rescued.length).toBeGreaterThanOrEqual(3);
    const last = rescued.at(-1) as { tools: Array<[string, boolean]>; toolSearchBeta: boolean; refs: string[] };
    expect(last.toolSearchBeta).toBe(true);
    expect(last.tools).toContainEqual(['ToolSearch', false]);
    expect(last.tools).toContainEqual(['mcp__user__echo', true]);
    expect(last.refs).toEqual(['mcp__user__echo', 'mcp__ctxshed__restore']);
    expect(answer('search-rescue', 'toolu_01Echo')?.text).toBe('echo: hi');
    // The control: with tool search off, every tool's schema rides along up front.
    const off = shape('search-off').at(-1) as typeof last;
    expect(off.tools).toContainEqual(['mcp__user__echo', false]);
    expect(off.tools.some(([name]) => name === 'ToolSearch')).toBe(false);
    const bytesOfTools = (name: string): number =>
      JSON.stringify((JSON.parse(sent.get(name)!.at(-1)!.client.toString('utf8')) as { tools: unknown }).tools).length;
    console.info(
      `real-client grant suite: tools array ${bytesOfTools('search-rescue')} bytes with tool search (rescue), ${bytesOfTools('search-off')} without`,
    );
    expect(bytesOfTools('search-rescue')).toBeLessThan(bytesOfTools('search-off'));
  });
});
